//===- ReverseSweepVectorizing.h - Reverse loops to vectorise ---*- C++ -*-===//
//
// A reverse sweep of a loop that overwrites an array in place (u[i] = f(u[i],
// u[i + 1], ...)) reads and zeroes the adjoint of the slot the iteration
// overwrote, and the next iteration adds into that same slot: a store and
// a load one iteration apart, which the loop vectoriser refuses ("unsafe
// dependent memory operations"), and LoopLoadElimination, which runs after
// the vectoriser, does not forward either. The adjoint an iteration hands
// to the next (a value carried in a register) is also computed after its
// use, which the vectoriser can only vectorise by sinking a store. This
// pass runs just before the loop vectoriser, on Tapestry's derivatives:
//
//  - a load that reads what the previous iteration zeroed (nothing writes
//    it in between) becomes that zero, or, in the first iteration, the
//    value loaded before the loop;
//  - the pure arithmetic computing a value carried to the next iteration
//    moves above the first use of the carried value.
//
// Both keep every value and every store as it was.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_REVERSESWEEPVECTORIZING_H
#define TAPESTRY_PASSES_REVERSESWEEPVECTORIZING_H

#include "llvm/IR/PassManager.h"

namespace tapestry {

class ReverseSweepVectorizingPass
    : public llvm::PassInfoMixin<ReverseSweepVectorizingPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace tapestry

#endif // TAPESTRY_PASSES_REVERSESWEEPVECTORIZING_H
