//===- ChosenLoopResults.h - Loops whose result a choice drops --*- C++ -*-===//
//
// A loop that only computes a value which a select then keeps or drops
// (k-means: each centroid's distance, of which `if (d < best) best = d`
// keeps one) has a reverse that does nothing but propagate that value's
// adjoint, and the adjoint is exactly zero whenever the select chose its
// other arm. The reverse sweep then skips the loop's reverse: for k
// centroids it runs one distance's reverse instead of k.
//
// The condition is the select's, not a test of the adjoint's value: when
// the derivative is differentiated again (forward over reverse), the
// adjoint's tangent is zero exactly when the adjoint is structurally zero,
// which a zero value does not imply.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_CHOSENLOOPRESULTS_H
#define TAPESTRY_SYNTHESIS_CHOSENLOOPRESULTS_H

#include "llvm/ADT/SmallVector.h"

namespace llvm {
class Loop;
class LoopInfo;
class CallBase;
class Instruction;
} // namespace llvm

namespace tapestry {

class ActivityInfo;

/// A loop of the primal whose reverse needs running only when a select (or
/// fmin, fmax) chose the arm its result flows into.
struct ChosenLoopResult {
  const llvm::Loop *L = nullptr;
  /// The select, or the call of a minimum or maximum (llvm.minnum,
  /// llvm.maxnum, llvm.minimum, llvm.maximum, or their library functions),
  /// all adjoints of the loop's results come from. It runs at most once per
  /// iteration of the loop around L, in the same iteration as L and after
  /// it.
  llvm::Instruction *Choice = nullptr;
  /// The arm the results flow into: the select's true (0) or false (1)
  /// value, or the call's operand.
  unsigned Arm = 0;
};

/// True for the calls a ChosenLoopResult may choose by: minimum and maximum,
/// whose partial derivatives are 0 or 1 (a piecewise constant, so testing
/// the partial is testing a condition, whose derivative is zero).
bool isChoosingCall(const llvm::CallBase &CB);

/// The loops of a prepared primal (\p LI) whose reverse adds nothing unless
/// a select chose their result: loops (with their inner loops) that write
/// no memory and call nothing but intrinsics that write none, whose active
/// values used after them reach, through phis of the loop around them,
/// only comparisons and one arm of one select (or minimum, maximum) of that
/// loop. The reverse
/// sweep must also check that such a loop keeps no records (its reverse
/// then reads and changes nothing outside itself but adjoints).
llvm::SmallVector<ChosenLoopResult, 2>
findChosenLoopResults(const llvm::LoopInfo &LI, const ActivityInfo &AI);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_CHOSENLOOPRESULTS_H
