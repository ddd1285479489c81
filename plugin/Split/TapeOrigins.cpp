//===- TapeOrigins.cpp - Which augmented forward filled a tape ------------===//
//
// The searches of Split/TapeOrigins.h, by the entry points' names
// (Core/EntryPoints.h).
//
//===----------------------------------------------------------------------===//
#include "Split/TapeOrigins.h"

#include "Core/EntryPoints.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace tapestry {

CallBase *augmentedCallOf(Value *V, unsigned Depth) {
  if (Depth > 6)
    return nullptr;
  V = V->stripPointerCasts();
  if (auto *EV = dyn_cast<ExtractValueInst>(V))
    return augmentedCallOf(EV->getAggregateOperand(), Depth + 1);
  if (auto *CB = dyn_cast<CallBase>(V))
    return classifyEntryPoint(entryPointName(*CB)) ==
                   EntryPoint::AugmentedForward
               ? CB
               : nullptr;
  auto *LI = dyn_cast<LoadInst>(V);
  if (!LI)
    return nullptr;
  auto *Slot =
      dyn_cast<AllocaInst>(getUnderlyingObject(LI->getPointerOperand()));
  if (!Slot)
    return nullptr;
  CallBase *Found = nullptr;
  SmallVector<Value *, 8> Work{Slot};
  while (!Work.empty()) {
    Value *P = Work.pop_back_val();
    for (User *U : P->users()) {
      if (isa<GetElementPtrInst>(U)) {
        Work.push_back(U);
      } else if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getPointerOperand() != P)
          continue;
        CallBase *C = augmentedCallOf(SI->getValueOperand(), Depth + 1);
        if (C && Found && C != Found)
          return nullptr; // Several: not one origin.
        Found = C ? C : Found;
      }
    }
  }
  return Found;
}

SmallVector<CallBase *, 2> augmentedForwardCalls(Function &F) {
  SmallVector<CallBase *, 2> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (classifyEntryPoint(entryPointName(*CB)) ==
          EntryPoint::AugmentedForward)
        Calls.push_back(CB);
  return Calls;
}

} // namespace tapestry
