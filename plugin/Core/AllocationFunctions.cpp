//===- AllocationFunctions.cpp - Heap allocation and release --------------===//
//
// Implements AllocationFunctions.h, the Core layer's one answer to "does this
// call allocate or free, and with which operands": heapFunction looks a callee
// up in a TargetLibraryInfoImpl of no target (so -fno-builtin and the target's
// library list do not hide malloc), and the predicates add the allocators the
// user registered (Core/AllocationLike). The getters at the end declare malloc,
// calloc, realloc and the deallocators for the code Synthesis emits. Nothing
// here builds a shadow: that is Synthesis/ShadowMemory.cpp.
//
//===----------------------------------------------------------------------===//
#include "Core/AllocationFunctions.h"

#include "Core/AllocationLike.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

/// LLVM's table of library functions, for no target in particular: which
/// functions a target has, and -fno-builtin, do not change what a call to
/// malloc does to memory.
static const TargetLibraryInfoImpl &libraryFunctions() {
  static const TargetLibraryInfoImpl Impl;
  return Impl;
}

std::optional<HeapFunction> heapFunction(const Function &F) {
  LibFunc LF;
  if (!F.getParent() || !libraryFunctions().getLibFunc(F, LF))
    return std::nullopt;
  switch (LF) {
  case LibFunc_malloc:
    return HeapFunction::Malloc;
  case LibFunc_calloc:
    return HeapFunction::Calloc;
  case LibFunc_realloc:
    return HeapFunction::Realloc;
  case LibFunc_aligned_alloc:
    return HeapFunction::AlignedAlloc;
  case LibFunc_posix_memalign:
    return HeapFunction::PosixMemalign;
  case LibFunc_Znwm:
    return HeapFunction::New;
  case LibFunc_Znam:
    return HeapFunction::NewArray;
  case LibFunc_free:
    return HeapFunction::Free;
  case LibFunc_ZdlPv:
  case LibFunc_ZdlPvm:
    return HeapFunction::Delete;
  case LibFunc_ZdaPv:
  case LibFunc_ZdaPvm:
    return HeapFunction::DeleteArray;
  default:
    return std::nullopt;
  }
}

std::optional<HeapFunction> heapFunction(const CallBase &CB) {
  if (const Function *F = CB.getCalledFunction())
    return heapFunction(*F);
  return std::nullopt;
}

bool isAllocationCall(const CallBase &CB) {
  if (const Function *F = CB.getCalledFunction(); F && customAllocator(*F))
    return true;
  switch (heapFunction(CB).value_or(HeapFunction::Free)) {
  case HeapFunction::Malloc:
  case HeapFunction::Calloc:
  case HeapFunction::Realloc:
  case HeapFunction::AlignedAlloc:
  case HeapFunction::New:
  case HeapFunction::NewArray:
    return true;
  default:
    return false;
  }
}

Value *allocationSize(const CallBase &CB) {
  const Function *F = CB.getCalledFunction();
  if (std::optional<CustomAllocator> CA =
          F ? customAllocator(*F) : std::nullopt)
    return CB.getArgOperand(CA->SizeArg);
  switch (heapFunction(CB).value_or(HeapFunction::Malloc)) {
  case HeapFunction::Calloc:
    return nullptr;
  case HeapFunction::AlignedAlloc:
  case HeapFunction::Realloc:
    return CB.getArgOperand(1);
  default:
    return CB.getArgOperand(0);
  }
}

bool isReallocCall(const CallBase &CB) {
  return heapFunction(CB) == HeapFunction::Realloc;
}

bool isOutParamAllocation(const CallBase &CB) {
  return heapFunction(CB) == HeapFunction::PosixMemalign;
}

bool isDeallocationCall(const CallBase &CB) {
  if (const Function *F = CB.getCalledFunction())
    if (std::optional<unsigned> I = customFreedOperand(*F))
      return *I < CB.arg_size();
  std::optional<HeapFunction> H = heapFunction(CB);
  return H == HeapFunction::Free || H == HeapFunction::Delete ||
         H == HeapFunction::DeleteArray;
}

unsigned freedOperandIndex(const CallBase &CB) {
  if (const Function *F = CB.getCalledFunction())
    if (std::optional<unsigned> I = customFreedOperand(*F))
      return *I;
  return 0;
}

Value *freedPointer(const CallBase &CB) {
  return CB.getArgOperand(freedOperandIndex(CB));
}

HeapFunction matchingDeallocator(HeapFunction Alloc) {
  switch (Alloc) {
  case HeapFunction::New:
    return HeapFunction::Delete;
  case HeapFunction::NewArray:
    return HeapFunction::DeleteArray;
  default:
    return HeapFunction::Free;
  }
}

bool isCxxHeapFunction(const Function &F) {
  switch (heapFunction(F).value_or(HeapFunction::Malloc)) {
  case HeapFunction::New:
  case HeapFunction::NewArray:
  case HeapFunction::Delete:
  case HeapFunction::DeleteArray:
    return true;
  default:
    return false;
  }
}

FunctionCallee getMallocFn(Module &M) {
  LLVMContext &C = M.getContext();
  return M.getOrInsertFunction("malloc",
                               FunctionType::get(PointerType::getUnqual(C),
                                                 {Type::getInt64Ty(C)}, false));
}

FunctionCallee getCallocFn(Module &M) {
  LLVMContext &C = M.getContext();
  Type *I64 = Type::getInt64Ty(C);
  return M.getOrInsertFunction(
      "calloc",
      FunctionType::get(PointerType::getUnqual(C), {I64, I64}, false));
}

FunctionCallee getReallocFn(Module &M) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  return M.getOrInsertFunction(
      "realloc", FunctionType::get(Ptr, {Ptr, Type::getInt64Ty(C)}, false));
}

FunctionCallee getDeallocatorFn(Module &M, HeapFunction Dealloc) {
  StringRef Name = Dealloc == HeapFunction::Delete        ? "_ZdlPv"
                   : Dealloc == HeapFunction::DeleteArray ? "_ZdaPv"
                                                          : "free";
  LLVMContext &C = M.getContext();
  return M.getOrInsertFunction(
      Name, FunctionType::get(Type::getVoidTy(C), {PointerType::getUnqual(C)},
                              false));
}

} // namespace tapestry
