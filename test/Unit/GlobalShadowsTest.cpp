//===- GlobalShadowsTest.cpp - Which globals get shadows ------------------===//
//
// Analysis/GlobalShadows.h gives a shadow to a global the differentiated
// code writes with floating-point values, and to one it stores a run-time
// pointer into and reads back only after that store, so that the reloaded
// pointer keeps its shadow. These tests pin which globals of small modules
// get one: a pointer set before every read (in the same function or before
// the call of a file-local reader) does; one set only on some paths (a
// lazily allocated workspace), whose address goes to a call, that nothing
// reads back, or only ever given constants does not.
//
//===----------------------------------------------------------------------===//
#include "Analysis/GlobalShadows.h"

#include "Core/CustomRules.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

#include <memory>

using namespace llvm;
using namespace tapestry;

namespace {

const char *const IR = R"IR(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@setFirst = internal global { ptr, i32 } zeroinitializer
@readInHelper = internal global ptr null
@lazy = internal global ptr null
@passedOn = internal global ptr null
@neverRead = internal global ptr null
@onlyConstant = internal global ptr null
@table = internal global [4 x double] zeroinitializer
@fieldMismatch = internal global { ptr, ptr } zeroinitializer

declare ptr @malloc(i64)
declare void @opaque()
declare void @publish(ptr)

define internal double @helper(i64 %i) {
  %p = load ptr, ptr @readInHelper
  %q = getelementptr double, ptr %p, i64 %i
  %v = load double, ptr %q
  ret double %v
}

define double @f(ptr %x, i1 %c) {
entry:
  ; set before the read, with a call between
  store ptr %x, ptr @setFirst
  call void @opaque()
  %a = load ptr, ptr @setFirst
  %va = load double, ptr %a
  ; set before a file-local reader is called
  store ptr %x, ptr @readInHelper
  %vh = call double @helper(i64 1)
  ; set on one path only, read on both
  br i1 %c, label %alloc, label %use
alloc:
  %m = call ptr @malloc(i64 64)
  store ptr %m, ptr @lazy
  br label %use
use:
  %l = load ptr, ptr @lazy
  %vl = load double, ptr %l
  ; its address goes to a call
  store ptr %x, ptr @passedOn
  call void @publish(ptr @passedOn)
  %p = load ptr, ptr @passedOn
  %vp = load double, ptr %p
  ; stored, never read back
  store ptr %x, ptr @neverRead
  ; only a constant without a shadow
  store ptr null, ptr @onlyConstant
  %o = load ptr, ptr @onlyConstant
  ; the read is of another field than the store
  %second = getelementptr { ptr, ptr }, ptr @fieldMismatch, i64 0, i32 1
  store ptr %x, ptr @fieldMismatch
  %fm = load ptr, ptr %second
  %vf = load double, ptr %fm
  %s1 = fadd double %va, %vh
  %s2 = fadd double %s1, %vl
  %s3 = fadd double %s2, %vp
  %s4 = fadd double %s3, %vf
  ret double %s4
}
)IR";

class GlobalShadowsTest : public ::testing::Test {
protected:
  void SetUp() override {
    SMDiagnostic Err;
    M = parseAssemblyString(IR, Err, Ctx);
    ASSERT_TRUE(M) << Err.getMessage().str();
    Rules = std::make_unique<CustomRules>(CustomRules::collect(*M));
    Reachable.insert(M->getFunction("f"));
    Reachable.insert(M->getFunction("helper"));
  }

  bool hasShadow(StringRef Name) {
    GlobalShadows S = GlobalShadows::collect(*M, Reachable, *Rules);
    return S.contains(M->getNamedGlobal(Name));
  }

  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  std::unique_ptr<CustomRules> Rules;
  SmallPtrSet<Function *, 4> Reachable;
};

TEST_F(GlobalShadowsTest, PointerSetBeforeItIsReadBack) {
  EXPECT_TRUE(hasShadow("setFirst"));
}

TEST_F(GlobalShadowsTest, PointerSetBeforeAFileLocalReaderIsCalled) {
  EXPECT_TRUE(hasShadow("readInHelper"));
}

TEST_F(GlobalShadowsTest, PointerSetOnSomePathsOnly) {
  EXPECT_FALSE(hasShadow("lazy"));
}

TEST_F(GlobalShadowsTest, AddressPassedToACall) {
  EXPECT_FALSE(hasShadow("passedOn"));
}

TEST_F(GlobalShadowsTest, PointerNeverReadBack) {
  EXPECT_FALSE(hasShadow("neverRead"));
}

TEST_F(GlobalShadowsTest, OnlyAConstantStored) {
  EXPECT_FALSE(hasShadow("onlyConstant"));
}

TEST_F(GlobalShadowsTest, ReadOfAnotherFieldThanTheStore) {
  EXPECT_FALSE(hasShadow("fieldMismatch"));
}

TEST_F(GlobalShadowsTest, NoShadowForAGlobalNothingWrites) {
  EXPECT_FALSE(hasShadow("table"));
}

} // namespace
