//===- ChosenLoopResults.cpp - Loops whose result a select may drop -------===//
//
// Implements ChosenLoopResults.h.
//
// Why one flag per loop is enough: let J be the loop around L (or the whole
// function). A block of J that is in none of J's inner loops runs at most
// once per iteration of J, and so does L. A value defined in L and used by
// such a block B (or reaching B's phi from a block of this kind) dominates
// that use, so if B runs in an iteration of J, L ran earlier in the same
// iteration: otherwise the path that enters J and follows this iteration
// would reach B without passing L. So the select, when it runs, decides the
// whole adjoint of the results of L's run in the same iteration, and when
// it does not run that adjoint is zero.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/ChosenLoopResults.h"

#include "Analysis/ActivityAnalysis.h"
#include "Synthesis/DerivativeRules.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace tapestry {

namespace {

/// True if \p I, in the loop, leaves nothing behind but its value: the
/// reverse of such instructions only moves adjoints.
bool onlyComputes(const Instruction &I) {
  if (isa<AllocaInst>(I))
    return false;
  if (const auto *II = dyn_cast<IntrinsicInst>(&I)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::lifetime_start:
    case Intrinsic::lifetime_end:
    case Intrinsic::experimental_noalias_scope_decl:
    case Intrinsic::assume:
      return true;
    default:
      return !II->mayWriteToMemory() && !II->mayThrow();
    }
  }
  // Any other call may have a derivative of its own with a tape, a custom
  // gradient, or effects.
  if (isa<CallBase>(I))
    return false;
  return !I.mayWriteToMemory() && !I.mayThrow();
}

/// The arm of select or minimum/maximum \p UI that \p V is, if it is one
/// (and not both, nor a vector select's, whose lanes choose apart).
std::optional<unsigned> armOf(const Instruction &UI, const Value *V) {
  const Value *A = nullptr, *B = nullptr;
  if (const auto *Sel = dyn_cast<SelectInst>(&UI)) {
    if (Sel->getCondition()->getType()->isVectorTy())
      return std::nullopt;
    A = Sel->getTrueValue();
    B = Sel->getFalseValue();
  } else if (const auto *CB = dyn_cast<CallBase>(&UI);
             CB && CB->arg_size() == 2 && isChoosingCall(*CB) &&
             !CB->getType()->isVectorTy()) {
    A = CB->getArgOperand(0);
    B = CB->getArgOperand(1);
  } else {
    return std::nullopt;
  }
  if ((A == V) == (B == V))
    return std::nullopt;
  return A == V ? 0 : 1;
}

/// Follows the uses of an active result of a loop in the loop \p J around
/// it: comparisons take no adjoint, phis of J pass it on, and one arm of
/// one select (or minimum, maximum) gives it.
class ResultUses {
public:
  ResultUses(const LoopInfo &LI, const Loop &L)
      : LI(LI), L(L), J(L.getParentLoop()) {}

  /// True if the adjoint of \p V (a value of the loop, or a phi after it)
  /// comes from Choice alone.
  bool follow(const Value *V) {
    for (const User *U : V->users()) {
      const auto *UI = cast<Instruction>(U);
      // The loop's own uses are part of its reverse.
      if (L.contains(UI) && L.contains(cast<Instruction>(V)))
        continue;
      if (isa<CmpInst>(UI))
        continue;
      if (LI.getLoopFor(UI->getParent()) != J)
        return false;
      if (const auto *Phi = dyn_cast<PHINode>(UI)) {
        if (LI.isLoopHeader(Phi->getParent()))
          return false;
        if (Seen.insert(Phi).second && !follow(Phi))
          return false;
        continue;
      }
      std::optional<unsigned> Arm = armOf(*UI, V);
      if (!Arm || (Choice && (Choice != UI || ChosenArm != *Arm)))
        return false;
      Choice = const_cast<Instruction *>(UI);
      ChosenArm = *Arm;
    }
    return true;
  }

  Instruction *Choice = nullptr;
  unsigned ChosenArm = 0;

private:
  const LoopInfo &LI;
  const Loop &L;
  const Loop *J;
  SmallPtrSet<const PHINode *, 4> Seen;
};

std::optional<ChosenLoopResult> chosenResult(const Loop &L, const LoopInfo &LI,
                                             const ActivityInfo &AI) {
  if (!L.getLoopPreheader())
    return std::nullopt;
  ResultUses Uses(LI, L);
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB) {
      if (!onlyComputes(I))
        return std::nullopt;
      if (!AI.isActive(&I) || llvm::all_of(I.users(), [&](const User *U) {
            return L.contains(cast<Instruction>(U));
          }))
        continue;
      // Only floating-point values carry their adjoint through a select
      // alone (a pointer's or an integer copy's goes through memory).
      if (!I.getType()->isFPOrFPVectorTy() || !Uses.follow(&I))
        return std::nullopt;
    }
  if (!Uses.Choice)
    return std::nullopt;
  return ChosenLoopResult{&L, Uses.Choice, Uses.ChosenArm};
}

} // namespace

bool isChoosingCall(const CallBase &CB) {
  const DerivativeRule *Rule = findCallRule(CB);
  if (!Rule)
    return false;
  switch (Rule->IID) {
  case Intrinsic::minnum:
  case Intrinsic::maxnum:
  case Intrinsic::minimum:
  case Intrinsic::maximum:
    return true;
  default:
    return false;
  }
}

SmallVector<ChosenLoopResult, 2> findChosenLoopResults(const LoopInfo &LI,
                                                       const ActivityInfo &AI) {
  SmallVector<ChosenLoopResult, 2> Found;
  for (const Loop *L : LI.getLoopsInPreorder())
    if (auto C = chosenResult(*L, LI, AI))
      Found.push_back(*C);
  return Found;
}

} // namespace tapestry
