//===- RuntimeActivity.h - Shadows that may be their primal -----*- C++ -*-===//
//
// A pointer without a shadow (an enzyme_const argument, a global table)
// stored into memory that has one (a heap table of row pointers, a context
// struct beside active pointers) gets the primal pointer itself as its
// shadow: a shadow equal to its primal means "no derivative here" (Enzyme's
// "runtime activity"). A pointer read back from memory where such a marker
// may have been stored cannot be told constant or active at compile time:
// every derivative access through it tests shadow == primal at run time,
// reading zero and skipping accumulations and tangent stores when equal.
//
// This analysis finds the stores that write markers and the pointers that
// may carry one. Where it cannot see where a pointer goes (an address loaded
// from memory, an argument) it assumes the worst: memory it cannot tell
// apart from marked memory is marked. A function that stores no constant
// pointer into shadowed memory has no such pointers and pays nothing.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_ANALYSIS_RUNTIMEACTIVITY_H
#define TAPESTRY_ANALYSIS_RUNTIMEACTIVITY_H

#include "Analysis/ActivityAnalysis.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class Function;
class Instruction;
class MemTransferInst;
class StoreInst;
class Value;
} // namespace llvm

namespace tapestry {

struct RuntimeActivity {
  /// Stores of a pointer without a shadow into shadowed memory: their
  /// shadow store writes the primal pointer (the "constant" marker).
  llvm::SmallPtrSet<const llvm::StoreInst *, 4> MarkerStores;
  /// Shadowed pointers whose shadow may equal their primal at run time.
  llvm::SmallPtrSet<const llvm::Value *, 8> MaybeConstant;
  /// The underlying objects of memory that may hold a marker.
  llvm::SmallVector<const llvm::Value *, 8> MarkedRoots;
  /// Pointers read from memory a caller said may reach markers at any
  /// depth: the memory they point to may hold markers. They mark what is
  /// derived from them, not every pointer of unknown origin.
  llvm::SmallVector<const llvm::Value *, 4> DeepMarkedPointers;
  /// Those pointers and the parameters the caller said so of: all memory
  /// reached from them may hold markers.
  llvm::SmallVector<const llvm::Value *, 4> DeepRoots;

  bool mayBeConstant(const llvm::Value *V) const {
    return MaybeConstant.count(V);
  }
  /// True if \p V is a constant pointer that a shadowed phi or select
  /// merges with shadowed ones: its shadow is itself.
  bool isMarker(const llvm::Value *V) const { return Markers.count(V); }
  llvm::SmallPtrSet<const llvm::Value *, 4> Markers;
  /// True if \p Ptr may point into memory that holds a marker.
  bool mayReadMarker(const llvm::Value *Ptr) const;
  /// True if a marker may be read through \p Ptr or through pointers read
  /// from the memory it points to (what a callee given \p Ptr may reach).
  bool mayReachMarker(const llvm::Value *Ptr) const;
  /// The objects \p V may point into: its underlying objects, where a
  /// pointer loaded from a private object (a local whose address never
  /// escapes) stands for the pointers this function stores there.
  const llvm::SmallVector<const llvm::Value *, 4> &
  roots(const llvm::Value *V) const;

private:
  void resolveRoots(const llvm::Value *V,
                    llvm::SmallVectorImpl<const llvm::Value *> &Out,
                    llvm::SmallPtrSetImpl<const llvm::Value *> &Seen,
                    unsigned Depth) const;
  mutable llvm::DenseMap<const llvm::Value *,
                         llvm::SmallVector<const llvm::Value *, 4>>
      RootCache;
};

/// True if a pointer with roots \p A may point to the same memory as one
/// with roots \p B (underlying objects; a root that is not an identified
/// object may be anything but a local object whose address never escapes).
bool mayShareObject(llvm::ArrayRef<const llvm::Value *> A,
                    llvm::ArrayRef<const llvm::Value *> B);

/// Computes the marker stores and maybe-constant pointers of \p F.
/// \p CopiesPointers tells whether a copy moves pointers (a copy of
/// pointers from memory without a shadow writes markers).
/// The caller's run-time activity of \p F's parameters seeds it: bit I of
/// \p MaybeConstantArgs says parameter I may be its own shadow, bit I of
/// \p MarkedMemoryArgs that the memory it points to may hold markers, of
/// \p MarkedDeepArgs that memory reached through pointers read from there
/// may.
RuntimeActivity computeRuntimeActivity(
    llvm::Function &F, const ActivityInfo &AI,
    llvm::function_ref<bool(llvm::MemTransferInst &)> CopiesPointers,
    uint64_t MaybeConstantArgs = 0, uint64_t MarkedMemoryArgs = 0,
    uint64_t MarkedDeepArgs = 0);

} // namespace tapestry

#endif // TAPESTRY_ANALYSIS_RUNTIMEACTIVITY_H
