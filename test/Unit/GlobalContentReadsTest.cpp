//===- GlobalContentReadsTest.cpp - Reads through pointers in globals -----===//
//
// Analysis/GlobalContentReads.h finds the floating-point values code reads
// through pointers loaded from a global, following the global's address and
// the loaded pointers through calls (member functions given the global as
// `this`, an accessor returning its address). These tests pin what it finds
// in a small module: reads in the function, in a callee, after an accessor,
// two pointers deep; and what it does not: a pointer only compared, an
// integer read, a double read from the global itself.
//
//===----------------------------------------------------------------------===//
#include "Analysis/GlobalContentReads.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

#include <memory>
#include <set>
#include <string>

using namespace llvm;
using namespace tapestry;

namespace {

const char *const IR = R"IR(
@holder = internal global { ptr, double } zeroinitializer
@single = internal global { ptr } zeroinitializer
@nested = internal global { ptr } zeroinitializer
@quiet = internal global { ptr } zeroinitializer

define void @set(ptr %this, ptr %q) {
  store ptr %q, ptr %this
  ret void
}

define ptr @get(ptr %this) {
  %p = load ptr, ptr %this
  ret ptr %p
}

define double @at(ptr %this, i64 %i) {
  %p = load ptr, ptr %this
  %e = getelementptr double, ptr %p, i64 %i
  %v = load double, ptr %e
  ret double %v
}

define ptr @instance() {
  ret ptr @single
}

define double @f(ptr %x) {
  call void @set(ptr @holder, ptr %x)
  %viaCallee = call double @at(ptr @holder, i64 1)
  %p = call ptr @get(ptr @holder)
  %inF = load double, ptr %p
  %own = getelementptr { ptr, double }, ptr @holder, i64 0, i32 1
  %notThrough = load double, ptr %own
  %s = fadd double %viaCallee, %inF
  %t = fadd double %s, %notThrough
  ret double %t
}

define double @g() {
  %a = call ptr @instance()
  %p = load ptr, ptr %a
  %afterAccessor = load double, ptr %p
  %q = load ptr, ptr @nested
  %r = load ptr, ptr %q
  %twoDeep = load double, ptr %r
  %s = fadd double %afterAccessor, %twoDeep
  ret double %s
}

define i64 @h() {
  %p = load ptr, ptr @quiet
  %isNull = icmp eq ptr %p, null
  %n = load i64, ptr %p
  %z = zext i1 %isNull to i64
  %r = add i64 %n, %z
  ret i64 %r
}
)IR";

class GlobalContentReadsTest : public ::testing::Test {
protected:
  void SetUp() override {
    SMDiagnostic Err;
    M = parseAssemblyString(IR, Err, Ctx);
    ASSERT_TRUE(M) << Err.getMessage().str();
    // The analysis reads copies; the functions themselves serve here.
    for (Function &F : *M)
      Copies[&F] = &F;
  }

  /// The names of the reads found through \p Global, each as
  /// "function:read:pointer".
  std::set<std::string> readsThrough(StringRef Global) {
    GlobalContentReads Finder(Copies);
    std::set<std::string> Names;
    for (const GlobalContentReads::Read &R :
         Finder.find(*M->getNamedGlobal(Global)))
      Names.insert(R.Copy->getName().str() + ":" + R.At->getName().str() +
                   ":" + (R.Pointer ? R.Pointer->getName().str() : "?"));
    return Names;
  }

  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  DenseMap<Function *, Function *> Copies;
};

TEST_F(GlobalContentReadsTest, ReadsInTheFunctionAndInACallee) {
  // The call of at() reads through the pointer in the callee; the
  // load after get() reads it in f; the double kept in the global itself
  // is not read through a pointer.
  EXPECT_EQ(readsThrough("holder"),
            (std::set<std::string>{"f:viaCallee:viaCallee", "f:inF:p"}));
}

TEST_F(GlobalContentReadsTest, ReadAfterAnAccessorReturningTheAddress) {
  EXPECT_EQ(readsThrough("single"),
            (std::set<std::string>{"g:afterAccessor:p"}));
}

TEST_F(GlobalContentReadsTest, ReadTwoPointersDeep) {
  EXPECT_EQ(readsThrough("nested"), (std::set<std::string>{"g:twoDeep:q"}));
}

TEST_F(GlobalContentReadsTest, ComparisonsAndIntegersAreNotReads) {
  EXPECT_TRUE(readsThrough("quiet").empty());
}

} // namespace
