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
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
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

/// The prefixes of getAlignedDeleteFn's functions, which are deallocators.
static constexpr StringLiteral AlignedDeletePrefix = "tapestry.delete.align";
static constexpr StringLiteral AlignedDeleteArrayPrefix =
    "tapestry.delete_array.align";

std::optional<HeapFunction> heapFunction(const Function &F) {
  if (F.getName().starts_with(AlignedDeletePrefix))
    return HeapFunction::Delete;
  if (F.getName().starts_with(AlignedDeleteArrayPrefix))
    return HeapFunction::DeleteArray;
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
    // operator new and delete in all their forms: nothrow, and C++17's
    // over-aligned (std::vector of an alignas(32) type). A shadow comes from
    // the same call with the same size and alignment; libstdc++ releases
    // the forms alike, but ASan checks that the alignments match, so shadows
    // are released with the same alignment (cxxAlignment).
  case LibFunc_Znwm:
  case LibFunc_ZnwmRKSt9nothrow_t:
  case LibFunc_ZnwmSt11align_val_t:
  case LibFunc_ZnwmSt11align_val_tRKSt9nothrow_t:
    return HeapFunction::New;
  case LibFunc_Znam:
  case LibFunc_ZnamRKSt9nothrow_t:
  case LibFunc_ZnamSt11align_val_t:
  case LibFunc_ZnamSt11align_val_tRKSt9nothrow_t:
    return HeapFunction::NewArray;
  case LibFunc_free:
    return HeapFunction::Free;
  case LibFunc_ZdlPv:
  case LibFunc_ZdlPvm:
  case LibFunc_ZdlPvRKSt9nothrow_t:
  case LibFunc_ZdlPvSt11align_val_t:
  case LibFunc_ZdlPvmSt11align_val_t:
  case LibFunc_ZdlPvSt11align_val_tRKSt9nothrow_t:
    return HeapFunction::Delete;
  case LibFunc_ZdaPv:
  case LibFunc_ZdaPvm:
  case LibFunc_ZdaPvRKSt9nothrow_t:
  case LibFunc_ZdaPvSt11align_val_t:
  case LibFunc_ZdaPvmSt11align_val_t:
  case LibFunc_ZdaPvSt11align_val_tRKSt9nothrow_t:
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

uint64_t cxxAlignment(const CallBase &CB) {
  const Function *F = CB.getCalledFunction();
  LibFunc LF;
  if (!F || !F->getParent() || !libraryFunctions().getLibFunc(*F, LF))
    return 0;
  unsigned Op;
  switch (LF) {
  case LibFunc_ZnwmSt11align_val_t:
  case LibFunc_ZnwmSt11align_val_tRKSt9nothrow_t:
  case LibFunc_ZnamSt11align_val_t:
  case LibFunc_ZnamSt11align_val_tRKSt9nothrow_t:
  case LibFunc_ZdlPvSt11align_val_t:
  case LibFunc_ZdlPvSt11align_val_tRKSt9nothrow_t:
  case LibFunc_ZdaPvSt11align_val_t:
  case LibFunc_ZdaPvSt11align_val_tRKSt9nothrow_t:
    Op = 1;
    break;
  case LibFunc_ZdlPvmSt11align_val_t:
  case LibFunc_ZdaPvmSt11align_val_t:
    Op = 2;
    break;
  default:
    return 0;
  }
  auto *Align = dyn_cast<ConstantInt>(CB.getArgOperand(Op));
  return Align ? Align->getZExtValue() : 0;
}

Value *sizedDeallocationBytes(const CallBase &CB) {
  const Function *F = CB.getCalledFunction();
  LibFunc LF;
  if (!F || !F->getParent() || !libraryFunctions().getLibFunc(*F, LF))
    return nullptr;
  switch (LF) {
  case LibFunc_ZdlPvm:
  case LibFunc_ZdaPvm:
  case LibFunc_ZdlPvmSt11align_val_t:
  case LibFunc_ZdaPvmSt11align_val_t:
    return CB.getArgOperand(1);
  default:
    return nullptr;
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

FunctionCallee getAlignedAllocFn(Module &M) {
  LLVMContext &C = M.getContext();
  Type *I64 = Type::getInt64Ty(C);
  return M.getOrInsertFunction(
      "aligned_alloc",
      FunctionType::get(PointerType::getUnqual(C), {I64, I64}, false));
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

FunctionCallee getMallocUsableSizeFn(Module &M) {
  LLVMContext &C = M.getContext();
  return M.getOrInsertFunction("malloc_usable_size",
                               FunctionType::get(Type::getInt64Ty(C),
                                                 {PointerType::getUnqual(C)},
                                                 false));
}

/// An internal void(ptr) function calling operator delete (or delete[]) of
/// \p Dealloc with the alignment \p Align, so that callers of
/// getDeallocatorFn need not know about alignments.
static FunctionCallee getAlignedDeleteFn(Module &M, HeapFunction Dealloc,
                                         uint64_t Align) {
  bool Array = Dealloc == HeapFunction::DeleteArray;
  std::string Name =
      (Array ? AlignedDeleteArrayPrefix : AlignedDeletePrefix).str() +
      std::to_string(Align);
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  if (Function *F = M.getFunction(Name))
    return F;
  FunctionCallee Delete = M.getOrInsertFunction(
      Array ? "_ZdaPvSt11align_val_t" : "_ZdlPvSt11align_val_t",
      FunctionType::get(Type::getVoidTy(C), {Ptr, Type::getInt64Ty(C)}, false));
  Function *F =
      Function::Create(FunctionType::get(Type::getVoidTy(C), {Ptr}, false),
                       GlobalValue::InternalLinkage, Name, M);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  B.CreateCall(Delete, {F->getArg(0), B.getInt64(Align)});
  B.CreateRetVoid();
  return F;
}

FunctionCallee getDeallocatorFn(Module &M, HeapFunction Dealloc,
                                uint64_t Align) {
  if (Align &&
      (Dealloc == HeapFunction::Delete || Dealloc == HeapFunction::DeleteArray))
    return getAlignedDeleteFn(M, Dealloc, Align);
  StringRef Name = Dealloc == HeapFunction::Delete        ? "_ZdlPv"
                   : Dealloc == HeapFunction::DeleteArray ? "_ZdaPv"
                                                          : "free";
  LLVMContext &C = M.getContext();
  return M.getOrInsertFunction(
      Name, FunctionType::get(Type::getVoidTy(C), {PointerType::getUnqual(C)},
                              false));
}

} // namespace tapestry
