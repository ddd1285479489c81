//===- AllocationFunctions.h - Heap allocation and release ------*- C++ -*-===//
//
// The one place that decides whether a call allocates or frees heap memory,
// and which of its operands are the size and the freed pointer. The C and
// C++ library functions are recognised through LLVM's TargetLibraryInfo (by
// name and prototype, as LibFunc values), functions registered with
// __enzyme_allocation_like through Core/AllocationLike.h. Analyses ask the
// predicates below; synthesis asks which deallocator matches an allocation
// and declares malloc, free and friends through the getters at the end.
//
// Tapestry gives shadows to exactly the functions of HeapFunction: LLVM's
// MemoryBuiltins knows more (strdup, hot/cold operator new, ...) that
// Tapestry does not differentiate yet, and it honours -fno-builtin,
// which must not hide malloc from the shadow bookkeeping, so the library
// functions are looked up in a TargetLibraryInfo of no particular target and
// of no function's attributes.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_ALLOCATIONFUNCTIONS_H
#define TAPESTRY_CORE_ALLOCATIONFUNCTIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/DerivedTypes.h"
#include <cstdint>
#include <optional>

namespace llvm {
class CallBase;
class Function;
class Module;
class Value;
} // namespace llvm

namespace tapestry {

/// The library functions that allocate or free heap memory Tapestry shadows.
enum class HeapFunction {
  Malloc,        ///< malloc(size)
  Calloc,        ///< calloc(count, size): zeroed
  Realloc,       ///< realloc(ptr, size)
  AlignedAlloc,  ///< aligned_alloc(align, size)
  PosixMemalign, ///< posix_memalign(&ptr, align, size): through its argument
  New,           ///< operator new(size[, align][, nothrow])
  NewArray,      ///< operator new[](size[, align][, nothrow])
  Free,          ///< free(ptr)
  Delete,        ///< operator delete(ptr), sized, aligned and nothrow forms
  DeleteArray,   ///< operator delete[](ptr), sized, aligned and nothrow forms
};

/// What \p F is among the library's heap functions, by LLVM's
/// TargetLibraryInfo: its name and a prototype that fits it.
std::optional<HeapFunction> heapFunction(const llvm::Function &F);
/// The same for the function \p CB calls directly, if any.
std::optional<HeapFunction> heapFunction(const llvm::CallBase &CB);

/// True if a call to \p CB allocates fresh memory the plugin gives a shadow
/// (malloc, calloc, realloc, aligned_alloc, operator new, and allocators
/// registered with __enzyme_allocation_like: Core/AllocationLike.h).
bool isAllocationCall(const llvm::CallBase &CB);
/// For an allocation call that leaves its memory uninitialised, the
/// operand that is its size in bytes (which the shadow zeroes); null for
/// calloc.
llvm::Value *allocationSize(const llvm::CallBase &CB);
/// True if \p CB is realloc(p, n) returning the new block.
bool isReallocCall(const llvm::CallBase &CB);
/// True if \p CB is posix_memalign(&p, align, size), which allocates through
/// its pointer argument (Synthesis/OutParamAllocations.cpp).
bool isOutParamAllocation(const llvm::CallBase &CB);
/// True if \p CB releases memory (free, operator delete, registered
/// deallocators).
bool isDeallocationCall(const llvm::CallBase &CB);
/// The operand of the deallocation call \p CB that is the pointer it frees
/// (the first, but a registered deallocator's may be another), and its
/// index.
llvm::Value *freedPointer(const llvm::CallBase &CB);
unsigned freedOperandIndex(const llvm::CallBase &CB);

/// The library function that frees what \p Alloc returns (a library
/// allocation, not a registered one): operator delete for operator new,
/// operator delete[] for operator new[], free otherwise.
HeapFunction matchingDeallocator(HeapFunction Alloc);
/// The alignment \p CB, a call of C++17's over-aligned operator new or
/// delete, passes (a constant), else 0. Shadows of such blocks are released
/// with the same alignment.
uint64_t cxxAlignment(const llvm::CallBase &CB);
/// The size in bytes \p CB, a call of C++14's sized operator delete or
/// delete[] (also over-aligned), passes: the size the block was allocated
/// with. Null for every other call.
llvm::Value *sizedDeallocationBytes(const llvm::CallBase &CB);
/// True if \p F is C++'s operator new, new[], delete or delete[].
bool isCxxHeapFunction(const llvm::Function &F);

/// Declarations of the library functions that derivative code calls itself,
/// with the C prototypes (size_t as i64).
llvm::FunctionCallee getMallocFn(llvm::Module &M);
llvm::FunctionCallee getCallocFn(llvm::Module &M);
llvm::FunctionCallee getReallocFn(llvm::Module &M);
/// aligned_alloc(alignment, size) (C11; size a multiple of the alignment).
llvm::FunctionCallee getAlignedAllocFn(llvm::Module &M);
/// malloc_usable_size (glibc): the size of a block from malloc.
llvm::FunctionCallee getMallocUsableSizeFn(llvm::Module &M);
/// free, operator delete or operator delete[] (the unsized forms): void(ptr).
/// With \p Align, the over-aligned form of operator delete (or delete[]),
/// through an internal void(ptr) function that passes the alignment.
llvm::FunctionCallee getDeallocatorFn(llvm::Module &M,
                                      HeapFunction Dealloc = HeapFunction::Free,
                                      uint64_t Align = 0);
inline llvm::FunctionCallee getFreeFn(llvm::Module &M) {
  return getDeallocatorFn(M, HeapFunction::Free);
}

} // namespace tapestry

#endif // TAPESTRY_CORE_ALLOCATIONFUNCTIONS_H
