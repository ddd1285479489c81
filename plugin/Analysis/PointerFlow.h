//===- PointerFlow.h - Where functions store the pointers given -*- C++ -*-===//
//
// A summary per function with a body of where it, or a function it calls,
// may store a pointer it was given (or read from memory it was given):
// into memory reached through which of its parameters. Run-time activity
// (RuntimeActivity.h) uses it at a call differentiated on its own: a
// callee given a constant pointer that it may store into memory reached
// through another parameter writes the constant marker into that memory's
// shadow, which the caller then reads.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_ANALYSIS_POINTERFLOW_H
#define TAPESTRY_ANALYSIS_POINTERFLOW_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <cstdint>

namespace llvm {
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace tapestry {

/// Parameters are bits of a mask; bit Unknown stands for memory or
/// pointers not reached through a parameter (a global, an unknown
/// function's result), and for parameters past it.
class PointerFlowSummary {
public:
  static constexpr unsigned Unknown = 63;

  struct Flow {
    /// The parameters through which the memory pointers are stored into is
    /// reached.
    uint64_t Dest = 0;
    /// The parameters the stored pointers come from (or are read through).
    uint64_t Src = 0;
  };

  /// Where \p F, or a function it calls, may store a pointer it was given:
  /// empty if only into its own locals and fresh allocations. Tapestry's
  /// own pieces (tapes, lists of freed shadows) count as storing nothing.
  Flow storesOut(const llvm::Function &F);

  /// The bit of parameter \p I.
  static uint64_t bit(unsigned I);
  /// True if \p Mask holds parameter \p I.
  static bool holds(uint64_t Mask, unsigned I);

private:
  Flow summarize(const llvm::Function &F);
  bool returnsIncoming(const llvm::Function &F);
  bool returnsIncomingRound(const llvm::Function &F);
  uint64_t incoming(const llvm::Value *Val,
                    llvm::ArrayRef<const llvm::Value *> Dest,
                    unsigned Depth = 0);
  uint64_t argsReaching(const llvm::Value *Obj, unsigned Depth = 0);
  uint64_t argsReachingPointer(const llvm::Value *Ptr, unsigned Depth = 0);
  Flow instructionFlow(const llvm::Instruction &I);

  /// Summaries so far; those of functions in FlowDone are final, the
  /// others (functions on a call cycle being summarized) may still grow.
  llvm::DenseMap<const llvm::Function *, Flow> Summaries;
  llvm::SmallPtrSet<const llvm::Function *, 8> FlowDone, FlowVisiting;
  bool FlowGrew = false;
  llvm::DenseMap<const llvm::Function *, bool> ReturnsIn;
  llvm::SmallPtrSet<const llvm::Function *, 8> RetDone, RetVisiting;
  bool RetGrew = false;
};

} // namespace tapestry

#endif // TAPESTRY_ANALYSIS_POINTERFLOW_H
