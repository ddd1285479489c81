//===- PrimalPreparation.h - Simplify a function before AD ------*- C++ -*-===//
//
// Differentiation works on a private clone of the user's function, never the
// function itself: calls to functions with bodies are inlined (recursive ones
// are kept and rejected later), allocas become SSA values, the code is
// simplified, loops are put in simplified form with a canonical induction
// variable, and all returns are merged into one block.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_PRIMALPREPARATION_H
#define TAPESTRY_SYNTHESIS_PRIMALPREPARATION_H

#include "Synthesis/IndirectCalls.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class PHINode;
class BasicBlock;
} // namespace llvm

namespace tapestry {

class CustomRules;

struct PreparedPrimal {
  llvm::Function *Fn = nullptr;
  /// Each loop in simplified form (preheader, one latch) gets a canonical
  /// induction variable 0, 1, 2, ... in its header, keyed by header.
  llvm::DenseMap<const llvm::BasicBlock *, llvm::PHINode *> LoopIVs;
  /// The calls through function pointers dispatched over their candidates
  /// (Synthesis/IndirectCalls.h).
  llvm::SmallVector<DispatchedCall, 2> Dispatched;
};

/// Returns the prepared internal clone of \p F.
/// Calls to functions with registered rules are kept as calls. A call
/// through a pointer that may hold a function in \p Stopped stops there
/// instead of calling it.
PreparedPrimal preparePrimal(llvm::Function &F,
                             llvm::FunctionAnalysisManager &FAM,
                             const CustomRules &Rules,
                             const StoppedCandidates *Stopped = nullptr);

/// Cleans up a synthesised function (SSA slots, folding, dead code) so it is
/// reasonable even at -O0, where nothing else optimises it. With
/// \p ScalarizeLoopLanes, a function with loops has its batch lanes
/// (<N x T> values) split into scalars, so that the loop vectoriser, which
/// leaves loops with vector-typed instructions alone, can vectorise the
/// reverse sweep's loops across iterations.
void simplifySynthesized(llvm::Function &G, llvm::FunctionAnalysisManager &FAM,
                         bool ScalarizeLoopLanes = false);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_PRIMALPREPARATION_H
