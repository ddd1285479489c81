//===- ReverseLoopSkips.cpp - Going past the reverse of a dropped loop ----===//
//
// For each loop whose result a select (or fmin, fmax) keeps or drops
// (ChosenLoopResults.h), the reverse block of the choice's block stores into
// a flag whether it kept the loop's result, and the reverse sweep enters the
// loop's reverse only if it did; otherwise it goes straight to the reverse of
// the loop's preheader. Each entry resets the flag, which starts set: a loop
// whose choice did not run in its iteration runs its reverse (a reverse of
// zero adjoints, which is right either way).
//
// The loop's reverse is skipped only if it leaves no state behind: a loop
// (or inner loop) with records would step its iteration count back in its
// reverse, and the counts of the iterations before it would be wrong; such
// skips are undone once the reverse sweep is built and the records known.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/ReverseModeSynthesizer.h"

#include "Core/Diagnostics.h"
#include "Synthesis/DerivativeRules.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"

#define DEBUG_TYPE "tapestry"

using namespace llvm;

STATISTIC(NumLoopReversesSkippable,
          "Loop reverses run only when a select, fmin or fmax kept the "
          "loop's result");

namespace tapestry {

/// How a remark names what chooses a loop's result.
static std::string choiceName(const Instruction &Choice) {
  const auto *CB = dyn_cast<CallBase>(&Choice);
  if (!CB)
    return "the select";
  const DerivativeRule *Rule = findCallRule(*CB);
  bool Max = Rule && (Rule->IID == Intrinsic::maxnum ||
                      Rule->IID == Intrinsic::maximum);
  return Max ? "the maximum" : "the minimum";
}

void ReverseModeSynthesizer::planLoopSkips() {
  for (const ChosenLoopResult &CR : findChosenLoopResults(LI, AI)) {
    // A minimum or maximum is reversed by its rule, unless the user gave it
    // a derivative of their own (or named it like another function).
    if (auto *CB = dyn_cast<CallBase>(CR.Choice)) {
      Function *Callee = CB->getCalledFunction();
      const DerivativeRule *Rule = ruleFor(*CB);
      if (!Callee || Rules.gradient(Callee) || !Rule ||
          Rule != findCallRule(*CB))
        continue;
    }
    LoopSkip S;
    S.Result = CR;
    S.Run = entryAlloca(Type::getInt1Ty(G->getContext()), "loop.reverse.runs");
    LoopSkips.push_back(std::move(S));
  }
}

void ReverseModeSynthesizer::startLoopSkips(IRBuilderBase &B) {
  for (LoopSkip &S : LoopSkips)
    S.Writes.push_back(B.CreateStore(B.getTrue(), S.Run));
}

void ReverseModeSynthesizer::recordLoopChoices(BasicBlock &PB,
                                               IRBuilderBase &B) {
  for (LoopSkip &S : LoopSkips) {
    Instruction *Choice = S.Result.Choice;
    if (Choice->getParent() != &PB)
      continue;
    Value *Chose;
    if (auto *Sel = dyn_cast<SelectInst>(Choice)) {
      Chose = lookup(primal(Sel->getCondition()), &PB, B);
      if (S.Result.Arm == 1)
        Chose = B.CreateNot(Chose);
    } else {
      // The rule's own partial for the arm, 0 or 1: the rule is the one
      // place that says which operand a tie or a NaN chooses.
      auto &CB = cast<CallBase>(*Choice);
      const DerivativeRule *Rule = ruleFor(CB);
      SmallVector<Value *, 2> Ops(CB.args());
      auto Get = [&](Value *PV) { return lookup(primal(PV), &PB, B); };
      PartialEmitter E(B, Ops, &CB, Get, /*AfterWholeBlock=*/true);
      Value *Partial = Rule->Partial(E, S.Result.Arm);
      Chose = B.CreateFCmpUNE(Partial, ConstantFP::getZero(Partial->getType()));
    }
    S.Writes.push_back(B.CreateStore(Chose, S.Run));
  }
}

void ReverseModeSynthesizer::branchBack(BasicBlock *Pred, BasicBlock &PB,
                                        IRBuilderBase &B) {
  BasicBlock *Into = RevBlocks[Pred];
  // LoopSkips lists outer loops first: going past the outermost loop the
  // edge enters goes past the others too.
  for (LoopSkip &S : LoopSkips) {
    const Loop *L = S.Result.L;
    if (!L->contains(Pred) || L->contains(&PB))
      continue;
    if (!S.Past) {
      S.Past = BasicBlock::Create(
          G->getContext(), "rev." + L->getHeader()->getName() + ".past", G);
      BranchInst::Create(RevBlocks[L->getLoopPreheader()], S.Past);
    }
    Value *Runs = B.CreateLoad(B.getInt1Ty(), S.Run, "loop.reverse.runs");
    S.Writes.push_back(B.CreateStore(B.getTrue(), S.Run));
    S.Tests.push_back(B.CreateCondBr(Runs, Into, S.Past));
    return;
  }
  B.CreateBr(Into);
}

void ReverseModeSynthesizer::finishLoopSkips() {
  OptimizationRemarkEmitter ORE(R.Fn);
  for (LoopSkip &S : LoopSkips) {
    const Loop *L = S.Result.L;
    std::string Select = choiceName(*S.Result.Choice);
    if (const DebugLoc &DL = S.Result.Choice->getDebugLoc())
      Select += " at line " + std::to_string(DL.getLine());
    bool Keep = !S.Tests.empty() && !Cache->keepsIterations(L);
    if (Keep) {
      ++NumLoopReversesSkippable;
      // -Rpass=tapestry: the reverse that may not run.
      ORE.emit([&]() {
        OptimizationRemark Rem("tapestry", "LoopReverseSkipped",
                               L->getStartLoc(), &R.Fn->getEntryBlock());
        Rem << "reverse sweep of '" << sourceName(*R.Fn)
            << "' runs the reverse of this loop only when " << Select
            << " keeps its result";
        return Rem;
      });
      continue;
    }
    if (!S.Tests.empty())
      ORE.emit([&]() {
        OptimizationRemarkMissed Rem("tapestry", "LoopReverseSkipped",
                                     L->getStartLoc(), &R.Fn->getEntryBlock());
        Rem << "reverse sweep of '" << sourceName(*R.Fn)
            << "' runs the reverse of this loop even when " << Select
            << " drops its result: the loop keeps values on the tape for "
               "each of its iterations (the remarks on what it caches say "
               "why)";
        return Rem;
      });
    for (BranchInst *Test : S.Tests) {
      auto *Runs = cast<Instruction>(Test->getCondition());
      BranchInst::Create(Test->getSuccessor(0), Test);
      Test->eraseFromParent();
      Runs->eraseFromParent();
    }
    for (StoreInst *W : S.Writes)
      W->eraseFromParent();
    if (S.Past)
      S.Past->eraseFromParent();
    S.Run->eraseFromParent();
  }
}

} // namespace tapestry
