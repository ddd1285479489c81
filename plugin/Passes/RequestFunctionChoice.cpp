//===- RequestFunctionChoice.cpp - Requests naming one of functions -------===//
//
// Implements RequestFunctionChoice.h.
//
//===----------------------------------------------------------------------===//
#include "Passes/RequestFunctionChoice.h"

#include "Passes/RequestArguments.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace tapestry {

/// Adds to \p Out the functions \p V may be, through phis and selects;
/// false if some value is not a function.
static bool collectChoices(Value *V, SmallSetVector<Function *, 4> &Out,
                           SmallPtrSetImpl<Value *> &Seen, unsigned Depth) {
  V = V->stripPointerCasts();
  if (!Seen.insert(V).second)
    return true;
  if (Function *F = resolveFunction(V)) {
    Out.insert(F);
    return true;
  }
  if (Depth >= 4)
    return false;
  if (auto *Phi = dyn_cast<PHINode>(V))
    return all_of(Phi->incoming_values(), [&](Value *In) {
      return collectChoices(In, Out, Seen, Depth + 1);
    });
  if (auto *Sel = dyn_cast<SelectInst>(V))
    return collectChoices(Sel->getTrueValue(), Out, Seen, Depth + 1) &&
           collectChoices(Sel->getFalseValue(), Out, Seen, Depth + 1);
  // A load from a constant table of functions: the lookup table
  // simplifycfg makes of a switch whose cases make the same request with
  // different functions (@switch.table.*).
  if (auto *LI = dyn_cast<LoadInst>(V)) {
    auto *GV =
        dyn_cast<GlobalVariable>(getUnderlyingObject(LI->getPointerOperand()));
    if (!GV || !GV->isConstant() || !GV->hasDefinitiveInitializer())
      return false;
    auto *Table = dyn_cast<ConstantArray>(GV->getInitializer());
    if (!Table)
      return false;
    for (Value *Entry : Table->operands()) {
      auto *F = dyn_cast<Function>(Entry->stripPointerCasts());
      if (!F)
        return false;
      Out.insert(F);
    }
    return true;
  }
  return false;
}

SmallVector<CallBase *, 2> splitRequestByFunction(CallBase &CB) {
  unsigned First = CB.hasStructRetAttr() ? 1 : 0;
  if (!isa<CallInst>(CB) || CB.arg_size() <= First)
    return {&CB};
  Value *Fn = CB.getArgOperand(First);
  if (resolveFunction(Fn))
    return {&CB};
  SmallSetVector<Function *, 4> Choices;
  SmallPtrSet<Value *, 8> Seen;
  if (!collectChoices(Fn, Choices, Seen, 0) || Choices.size() < 2)
    return {&CB};
  SmallVector<CallBase *, 2> Out;
  CallBase *Rest = &CB;
  for (unsigned I = 0; I + 1 < Choices.size(); ++I) {
    IRBuilder<> B(Rest);
    Value *Is = B.CreateICmpEQ(Fn, Choices[I]);
    Instruction *ThenTerm = nullptr, *ElseTerm = nullptr;
    SplitBlockAndInsertIfThenElse(Is, Rest->getIterator(), &ThenTerm,
                                  &ElseTerm);
    auto *Then = cast<CallBase>(Rest->clone());
    Then->insertBefore(ThenTerm);
    Then->setArgOperand(First, Choices[I]);
    auto *Else = cast<CallBase>(Rest->clone());
    Else->insertBefore(ElseTerm);
    if (!Rest->getType()->isVoidTy()) {
      PHINode *Merged =
          PHINode::Create(Rest->getType(), 2, Rest->getName(), Rest);
      Merged->addIncoming(Then, Then->getParent());
      Merged->addIncoming(Else, Else->getParent());
      Rest->replaceAllUsesWith(Merged);
    }
    Rest->eraseFromParent();
    Out.push_back(Then);
    Rest = Else;
  }
  Rest->setArgOperand(First, Choices.back());
  Out.push_back(Rest);
  return Out;
}

} // namespace tapestry
