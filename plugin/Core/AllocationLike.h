//===- AllocationLike.h - Allocators the user registers ---------*- C++ -*-===//
//
// Enzyme's registration of a custom allocator and its deallocator,
//   void *__enzyme_allocation_like[4] = {(void *)my_alloc, (void *)SIZE,
//                                        (void *)"INDICES", (void *)my_free};
// says that my_alloc returns fresh memory of as many bytes as its argument
// SIZE, to be released by my_free. INDICES lists my_free's parameters in
// order, each either -1 (the pointer my_alloc returned) or k (my_alloc's
// argument k): "-1" is my_free(p), "-1,2,3" is my_free(p, a2, a3).
//
// Core/CustomRules.cpp reads the registration and records it here, on the
// two functions themselves (string attributes, as Enzyme does), so that
// every analysis that asks "does this call allocate or free?"
// (Core/AllocationFunctions.h) sees registered allocators exactly as it sees
// malloc and free.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_ALLOCATIONLIKE_H
#define TAPESTRY_CORE_ALLOCATIONLIKE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace llvm {
class Function;
} // namespace llvm

namespace tapestry {

struct CustomAllocator {
  /// my_alloc's argument that is the size in bytes.
  unsigned SizeArg = 0;
  /// my_free's parameters: -1 the pointer, k my_alloc's argument k.
  llvm::SmallVector<int, 4> DeallocArgs;
  llvm::Function *Dealloc = nullptr;
};

/// Records that \p Alloc allocates like malloc (its argument \p SizeArg is
/// the size) and \p Dealloc frees what it returns, called as
/// \p DeallocArgs says. The caller has checked that the two agree.
void markAllocationLike(llvm::Function &Alloc, unsigned SizeArg,
                        llvm::ArrayRef<int> DeallocArgs,
                        llvm::Function &Dealloc);

/// The registration of \p F as an allocator, if it has one.
std::optional<CustomAllocator> customAllocator(const llvm::Function &F);

/// Which of \p F's parameters is the pointer it frees, if \p F is a
/// registered deallocator.
std::optional<unsigned> customFreedOperand(const llvm::Function &F);

} // namespace tapestry

#endif // TAPESTRY_CORE_ALLOCATIONLIKE_H
