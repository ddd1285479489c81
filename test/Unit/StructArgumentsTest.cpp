//===- StructArgumentsTest.cpp - Structs the C ABI split or passed byval --===//
//
// Recovers source-level struct parameters and struct values from the IR
// clang emits (without debug info here): pieces stored into one local by a
// callee, pieces loaded from one address by a caller, and byval pointers.
//
//===----------------------------------------------------------------------===//
#include "Passes/StructArguments.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace tapestry;

namespace {

const char *const IR = R"IR(
%struct.V = type { double, double }
%struct.V3 = type { double, double, double }
%struct.FI = type { float, i32, double }

declare double @__enzyme_fwddiff(ptr, ...)

define double @sf(double %0, double %1, double %x) {
  %v = alloca %struct.V
  %x.addr = alloca double
  %a = getelementptr inbounds { double, double }, ptr %v, i32 0, i32 0
  store double %0, ptr %a
  %b = getelementptr inbounds { double, double }, ptr %v, i32 0, i32 1
  store double %1, ptr %b
  store double %x, ptr %x.addr
  ret double 0.0
}

define double @s3(ptr byval(%struct.V3) %v, double %x) {
  ret double 0.0
}

define double @fi(i64 %0, double %1) {
  %v = alloca %struct.FI
  %a = getelementptr inbounds { i64, double }, ptr %v, i32 0, i32 0
  store i64 %0, ptr %a
  %b = getelementptr inbounds { i64, double }, ptr %v, i32 0, i32 1
  store double %1, ptr %b
  ret double 0.0
}

define double @caller(ptr byval(%struct.V3) %w) {
  %v = alloca %struct.V
  %dv = alloca %struct.V
  %p0 = getelementptr inbounds { double, double }, ptr %v, i32 0, i32 0
  %v0 = load double, ptr %p0
  %p1 = getelementptr inbounds { double, double }, ptr %v, i32 0, i32 1
  %v1 = load double, ptr %p1
  %m = getelementptr inbounds %struct.V, ptr %dv, i32 0, i32 0
  %d0 = load double, ptr %m
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @sf, double %v0, double %v1, double %d0, ptr byval(%struct.V3) %w)
  ret double %r
}
)IR";

struct StructArgumentsTest : ::testing::Test {
  LLVMContext Ctx;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(IR, Err, Ctx);
  CallBase &call() {
    for (Instruction &I : instructions(*M->getFunction("caller")))
      if (auto *CB = dyn_cast<CallBase>(&I))
        return *CB;
    llvm_unreachable("no call");
  }
};

TEST_F(StructArgumentsTest, SplitParameterIsOneStructOfTwoPieces) {
  ASSERT_TRUE(M);
  auto Params = structParams(*M->getFunction("sf"));
  ASSERT_EQ(Params.size(), 1u);
  EXPECT_EQ(Params[0].First, 0u);
  EXPECT_EQ(Params[0].Count, 2u);
  EXPECT_FALSE(Params[0].ByVal);
  EXPECT_EQ(Params[0].TypeName, "V");
  EXPECT_TRUE(Params[0].HiddenFloat.empty());
}

TEST_F(StructArgumentsTest, ByValParameter) {
  ASSERT_TRUE(M);
  auto Params = structParams(*M->getFunction("s3"));
  ASSERT_EQ(Params.size(), 1u);
  EXPECT_TRUE(Params[0].ByVal);
  EXPECT_EQ(Params[0].Count, 1u);
  EXPECT_EQ(Params[0].TypeName, "V3");
}

TEST_F(StructArgumentsTest, FloatPackedWithAnIntegerIsHidden) {
  ASSERT_TRUE(M);
  auto Params = structParams(*M->getFunction("fi"));
  ASSERT_EQ(Params.size(), 1u);
  EXPECT_EQ(Params[0].Count, 2u);
  EXPECT_FALSE(Params[0].HiddenFloat.empty());
}

TEST_F(StructArgumentsTest, CallerPiecesOfOneValueGroupTogether) {
  ASSERT_TRUE(M);
  CallBase &CB = call();
  std::optional<AbiStruct> V = structValueAt(CB, 1);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Count, 2u);
  EXPECT_EQ(V->TypeName, "V");
  // The second piece starts nothing; a member read is not a piece.
  EXPECT_FALSE(structValueAt(CB, 2));
  EXPECT_FALSE(structValueAt(CB, 3));
  std::optional<AbiStruct> W = structValueAt(CB, 4);
  ASSERT_TRUE(W);
  EXPECT_TRUE(W->ByVal);
  EXPECT_EQ(W->TypeName, "V3");
}

} // namespace
