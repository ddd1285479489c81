//===- PromotedCopy.cpp ---------------------------------------------------===//
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
  Function *Copy = CloneFunction(&F, VMap);
  Copy->setCallingConv(CallingConv::C);
  DominatorTree DT(*Copy);
  SmallVector<AllocaInst *, 8> Slots;
  for (Instruction &I : Copy->getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (isAllocaPromotable(AI))
        Slots.push_back(AI);
  if (!Slots.empty())
    PromoteMemToReg(Slots, DT);
  return Copy;
}

} // namespace tapestry
