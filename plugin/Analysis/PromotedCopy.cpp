//===- PromotedCopy.cpp - A function as if its locals were values ---------===//
//
// Implements PromotedCopy.h: clonePromoted clones a function and runs LLVM's
// PromoteMemToReg over the promotable stack slots of its entry block;
// inlineCallsWhere inlines chosen calls into such a copy. The
// caller owns the copy and erases it; the original is not touched. Used by the
// analyses that look into callees (type analysis, global shadows).
//
//===----------------------------------------------------------------------===//
#include "Analysis/PromotedCopy.h"

#include "llvm/Analysis/InlineCost.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace tapestry {

Function *clonePromoted(Function &F) {
  ValueToValueMapTy VMap;
  return clonePromoted(F, VMap);
}

Function *clonePromoted(Function &F, ValueToValueMapTy &VMap) {
  return clonePromoted(F, VMap, [](Function &) {});
}

Function *clonePromoted(Function &F, ValueToValueMapTy &VMap,
                        function_ref<void(Function &)> BeforePromotion) {
  Function *Copy = CloneFunction(&F, VMap);
  Copy->setCallingConv(CallingConv::C);
  BeforePromotion(*Copy);
  promoteSlots(*Copy);
  return Copy;
}

void promoteSlots(Function &F) {
  DominatorTree DT(F);
  SmallVector<AllocaInst *, 8> Slots;
  for (Instruction &I : F.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (isAllocaPromotable(AI))
        Slots.push_back(AI);
  if (!Slots.empty())
    PromoteMemToReg(Slots, DT);
}

void inlineCallsWhere(Function &Copy, unsigned Rounds, unsigned MaxSize,
                      function_ref<bool(CallBase &, Function &)> Pick) {
  for (unsigned Round = 0; Round < Rounds; ++Round) {
    promoteSlots(Copy); // a callee's `this` passes through a slot at -O0
    SmallVector<CallBase *, 8> Calls;
    for (Instruction &I : instructions(Copy)) {
      auto *CB = dyn_cast<CallBase>(&I);
      Function *Callee = CB ? CB->getCalledFunction() : nullptr;
      if (Callee && !Callee->isDeclaration() && Callee != &Copy &&
          Pick(*CB, *Callee) && isInlineViable(*Callee).isSuccess())
        Calls.push_back(CB);
    }
    if (Calls.empty() || Copy.getInstructionCount() > MaxSize)
      return;
    for (CallBase *CB : Calls) {
      InlineFunctionInfo IFI;
      (void)InlineFunction(*CB, IFI);
    }
  }
}

} // namespace tapestry
