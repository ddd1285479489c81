//===- PromotedCopy.cpp - A function as if its locals were values ---------===//
//
// Implements PromotedCopy.h: clonePromoted clones a function and runs LLVM's
// PromoteMemToReg over the promotable stack slots of its entry block. The
// caller owns the copy and erases it; the original is not touched. Used by the
// analyses that look into callees (type analysis, global shadows).
//
//===----------------------------------------------------------------------===//
#include "Analysis/PromotedCopy.h"

#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
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

} // namespace tapestry
