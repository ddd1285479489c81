//===- AllocationFunctionsTest.cpp - Heap functions, recognised once ------===//
//
// Core/AllocationFunctions.h recognises the C and C++ heap functions through
// LLVM's TargetLibraryInfo, and registered allocators through their
// registration. These tests pin which calls are allocations and
// deallocations, their size and freed operands, which deallocator matches
// which allocator, and that what Tapestry recognises agrees with LLVM's
// MemoryBuiltins where both know the function.
//
//===----------------------------------------------------------------------===//
#include "Core/AllocationFunctions.h"

#include "Core/AllocationLike.h"
#include "llvm/Analysis/MemoryBuiltins.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Transforms/Utils/BuildLibCalls.h"

#include "gtest/gtest.h"

#include <memory>

using namespace llvm;
using namespace tapestry;

namespace {

// One call of each function, in this order, in @calls.
const char *const IR = R"IR(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare ptr @malloc(i64)
declare ptr @calloc(i64, i64)
declare ptr @realloc(ptr, i64)
declare ptr @aligned_alloc(i64, i64)
declare i32 @posix_memalign(ptr, i64, i64)
declare ptr @_Znwm(i64)
declare ptr @_Znam(i64)
declare void @free(ptr)
declare void @_ZdlPv(ptr)
declare void @_ZdlPvm(ptr, i64)
declare void @_ZdaPv(ptr)
declare void @_ZdaPvm(ptr, i64)
declare ptr @strdup(ptr)
declare ptr @_ZnwmSt11align_val_t(i64, i64)
declare ptr @my_alloc(i32, i64)
declare void @my_free(i64, ptr)
declare double @sin(double)

define void @calls(ptr %p, i64 %n, i32 %k) {
  %malloc = call ptr @malloc(i64 %n)
  %calloc = call ptr @calloc(i64 %n, i64 8)
  %realloc = call ptr @realloc(ptr %p, i64 %n)
  %aligned = call ptr @aligned_alloc(i64 64, i64 %n)
  %memalign = call i32 @posix_memalign(ptr %p, i64 64, i64 %n)
  %new = call ptr @_Znwm(i64 %n) #0
  %newarray = call ptr @_Znam(i64 %n)
  call void @free(ptr %p)
  call void @_ZdlPv(ptr %p) #0
  call void @_ZdlPvm(ptr %p, i64 %n)
  call void @_ZdaPv(ptr %p)
  call void @_ZdaPvm(ptr %p, i64 %n)
  %strdup = call ptr @strdup(ptr %p)
  %alignednew = call ptr @_ZnwmSt11align_val_t(i64 %n, i64 64)
  %custom = call ptr @my_alloc(i32 %k, i64 %n)
  call void @my_free(i64 %n, ptr %p)
  %sin = call double @sin(double 1.0)
  ret void
}

attributes #0 = { nobuiltin }
)IR";

class AllocationFunctionsTest : public ::testing::Test {
protected:
  void SetUp() override {
    SMDiagnostic Err;
    M = parseAssemblyString(IR, Err, Ctx);
    ASSERT_TRUE(M) << Err.getMessage().str();
    // my_alloc(k, n) allocates n bytes, freed by my_free(n, p).
    markAllocationLike(*M->getFunction("my_alloc"), 1, {1, -1},
                       *M->getFunction("my_free"));
    for (Instruction &I : instructions(*M->getFunction("calls")))
      if (auto *CB = dyn_cast<CallBase>(&I))
        Calls.push_back(CB);
    ASSERT_EQ(Calls.size(), 17u);
  }

  const CallBase &call(StringRef Callee) {
    for (CallBase *CB : Calls)
      if (CB->getCalledFunction()->getName() == Callee)
        return *CB;
    ADD_FAILURE() << "no call to " << Callee.str();
    return *Calls.front();
  }

  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  SmallVector<CallBase *, 16> Calls;
};

TEST_F(AllocationFunctionsTest, LibraryFunctionsByNameAndPrototype) {
  auto Kind = [&](StringRef Name) { return heapFunction(call(Name)); };
  EXPECT_EQ(Kind("malloc"), HeapFunction::Malloc);
  EXPECT_EQ(Kind("calloc"), HeapFunction::Calloc);
  EXPECT_EQ(Kind("realloc"), HeapFunction::Realloc);
  EXPECT_EQ(Kind("aligned_alloc"), HeapFunction::AlignedAlloc);
  EXPECT_EQ(Kind("posix_memalign"), HeapFunction::PosixMemalign);
  EXPECT_EQ(Kind("_Znwm"), HeapFunction::New);
  EXPECT_EQ(Kind("_Znam"), HeapFunction::NewArray);
  EXPECT_EQ(Kind("free"), HeapFunction::Free);
  EXPECT_EQ(Kind("_ZdlPv"), HeapFunction::Delete);
  EXPECT_EQ(Kind("_ZdlPvm"), HeapFunction::Delete);
  EXPECT_EQ(Kind("_ZdaPv"), HeapFunction::DeleteArray);
  EXPECT_EQ(Kind("_ZdaPvm"), HeapFunction::DeleteArray);
  // C++17's over-aligned forms.
  EXPECT_EQ(Kind("_ZnwmSt11align_val_t"), HeapFunction::New);
  // Heap functions Tapestry does not shadow yet, and other functions.
  EXPECT_EQ(Kind("strdup"), std::nullopt);
  EXPECT_EQ(Kind("my_alloc"), std::nullopt);
  EXPECT_EQ(Kind("sin"), std::nullopt);
}

TEST(AllocationFunctions, NameAloneIsNotEnough) {
  // Functions named like the library's, with prototypes that do not fit.
  LLVMContext Ctx;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(R"IR(
declare i32 @malloc(double)
declare void @free(ptr, ptr, ptr)
define ptr @_Znwm(ptr %p) {
  ret ptr %p
}
)IR",
                                                  Err, Ctx);
  ASSERT_TRUE(M) << Err.getMessage().str();
  for (const Function &F : *M)
    EXPECT_EQ(heapFunction(F), std::nullopt) << F.getName().str();
}

TEST_F(AllocationFunctionsTest, AllocationsAndTheirSizes) {
  for (StringRef Name : {"malloc", "calloc", "realloc", "aligned_alloc",
                         "_Znwm", "_Znam", "_ZnwmSt11align_val_t", "my_alloc"})
    EXPECT_TRUE(isAllocationCall(call(Name))) << Name.str();
  for (StringRef Name :
       {"posix_memalign", "free", "_ZdlPv", "strdup", "my_free", "sin"})
    EXPECT_FALSE(isAllocationCall(call(Name))) << Name.str();

  Value *N = M->getFunction("calls")->getArg(1);
  EXPECT_EQ(allocationSize(call("malloc")), N);
  EXPECT_EQ(allocationSize(call("calloc")), nullptr); // zeroed already
  EXPECT_EQ(allocationSize(call("aligned_alloc")), N);
  EXPECT_EQ(allocationSize(call("_Znwm")), N);
  EXPECT_EQ(allocationSize(call("_Znam")), N);
  EXPECT_EQ(allocationSize(call("_ZnwmSt11align_val_t")), N);
  // Shadows of over-aligned blocks are released with the same alignment.
  EXPECT_EQ(cxxAlignment(call("_ZnwmSt11align_val_t")), 64u);
  EXPECT_EQ(cxxAlignment(call("_Znwm")), 0u);
  EXPECT_EQ(allocationSize(call("my_alloc")), N); // the registered argument

  EXPECT_TRUE(isReallocCall(call("realloc")));
  EXPECT_FALSE(isReallocCall(call("malloc")));
  EXPECT_TRUE(isOutParamAllocation(call("posix_memalign")));
  EXPECT_FALSE(isOutParamAllocation(call("aligned_alloc")));
}

TEST_F(AllocationFunctionsTest, DeallocationsAndTheirPointers) {
  Value *P = M->getFunction("calls")->getArg(0);
  // An explicit call of operator delete is `nobuiltin` (as clang marks
  // `::operator delete(p)`): it still frees.
  for (StringRef Name :
       {"free", "_ZdlPv", "_ZdlPvm", "_ZdaPv", "_ZdaPvm", "my_free"}) {
    EXPECT_TRUE(isDeallocationCall(call(Name))) << Name.str();
    EXPECT_EQ(freedPointer(call(Name)), P) << Name.str();
  }
  EXPECT_EQ(freedOperandIndex(call("free")), 0u);
  EXPECT_EQ(freedOperandIndex(call("my_free")), 1u);
  for (StringRef Name : {"malloc", "realloc", "posix_memalign", "sin"})
    EXPECT_FALSE(isDeallocationCall(call(Name))) << Name.str();
}

TEST_F(AllocationFunctionsTest, MatchingDeallocators) {
  EXPECT_EQ(matchingDeallocator(HeapFunction::Malloc), HeapFunction::Free);
  EXPECT_EQ(matchingDeallocator(HeapFunction::Calloc), HeapFunction::Free);
  EXPECT_EQ(matchingDeallocator(HeapFunction::AlignedAlloc),
            HeapFunction::Free);
  EXPECT_EQ(matchingDeallocator(HeapFunction::New), HeapFunction::Delete);
  EXPECT_EQ(matchingDeallocator(HeapFunction::NewArray),
            HeapFunction::DeleteArray);
  EXPECT_TRUE(isCxxHeapFunction(*M->getFunction("_Znwm")));
  EXPECT_TRUE(isCxxHeapFunction(*M->getFunction("_ZdaPvm")));
  EXPECT_FALSE(isCxxHeapFunction(*M->getFunction("malloc")));
  EXPECT_FALSE(isCxxHeapFunction(*M->getFunction("free")));
}

TEST_F(AllocationFunctionsTest, DeclarationsAreTheLibraryFunctions) {
  // The declarations derivative code calls are the same functions, and are
  // recognised as what they are.
  auto Heap = [](FunctionCallee FC) {
    return heapFunction(*cast<Function>(FC.getCallee()));
  };
  EXPECT_EQ(getMallocFn(*M).getCallee(), M->getFunction("malloc"));
  EXPECT_EQ(Heap(getMallocFn(*M)), HeapFunction::Malloc);
  EXPECT_EQ(Heap(getCallocFn(*M)), HeapFunction::Calloc);
  EXPECT_EQ(Heap(getReallocFn(*M)), HeapFunction::Realloc);
  EXPECT_EQ(Heap(getFreeFn(*M)), HeapFunction::Free);
  EXPECT_EQ(Heap(getDeallocatorFn(*M, HeapFunction::Delete)),
            HeapFunction::Delete);
  EXPECT_EQ(Heap(getDeallocatorFn(*M, HeapFunction::DeleteArray)),
            HeapFunction::DeleteArray);
  // In a module that has none yet, they are declared with C's prototypes.
  Module Empty("empty", Ctx);
  Empty.setDataLayout(M->getDataLayout());
  EXPECT_EQ(Heap(getMallocFn(Empty)), HeapFunction::Malloc);
  EXPECT_EQ(Heap(getFreeFn(Empty)), HeapFunction::Free);
}

TEST_F(AllocationFunctionsTest, AgreesWithMemoryBuiltins) {
  // Every library allocation Tapestry shadows is one for LLVM too, and
  // every library deallocation is LLVM's free-like function.
  // MemoryBuiltins knows realloc, aligned_alloc and free only by the
  // attributes (allockind, ...) that the optimiser infers for library
  // functions, as clang's pipeline does at -O1 and above; at -O0 they are
  // not there, one reason Tapestry does not ask MemoryBuiltins.
  TargetLibraryInfoImpl TLII(Triple(M->getTargetTriple()));
  TargetLibraryInfo TLI(TLII);
  for (Function &F : *M)
    if (F.isDeclaration())
      inferNonMandatoryLibFuncAttrs(F, TLI);
  for (CallBase *CB : Calls) {
    Function *F = CB->getCalledFunction();
    if (!heapFunction(*F))
      continue;
    LibFunc LF;
    ASSERT_TRUE(TLI.getLibFunc(*F, LF)) << F->getName().str();
    if (isAllocationCall(*CB)) {
      if (CB->isNoBuiltin())
        continue; // MemoryBuiltins ignores nobuiltin calls
      EXPECT_TRUE(isAllocationFn(CB, &TLI)) << F->getName().str();
    }
    if (isDeallocationCall(*CB)) {
      EXPECT_TRUE(isLibFreeFunction(F, LF)) << F->getName().str();
    }
  }
  // The other way round, LLVM knows more than Tapestry shadows.
  EXPECT_TRUE(isAllocationFn(&call("strdup"), &TLI));
  EXPECT_FALSE(isAllocationCall(call("strdup")));
}

} // namespace
