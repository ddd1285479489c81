//===- StackSlots.cpp - Pointers seen through -O0 stack slots -------------===//
//
// Implements StackSlots.h: stackSlotRoots returns the underlying objects of a
// pointer, replacing a pointer loaded from an -O0 stack slot that holds one
// pointer by the values stored into the slot, to a depth of three slots. It
// does not look through memory other than such slots.
//
//===----------------------------------------------------------------------===//
#include "Analysis/StackSlots.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace tapestry {

static void slotRoots(const Value *V, SmallVectorImpl<const Value *> &Out,
                      unsigned Depth) {
  SmallVector<const Value *, 4> Roots;
  getUnderlyingObjects(V, Roots, /*LI=*/nullptr, /*MaxLookup=*/0);
  for (const Value *R : Roots) {
    // A slot is a local holding one pointer, loaded whole.
    auto *L = dyn_cast<LoadInst>(R);
    auto *Slot =
        L ? dyn_cast<AllocaInst>(L->getPointerOperand()->stripPointerCasts())
          : nullptr;
    if (!Slot || !Slot->getAllocatedType()->isPointerTy() || Depth >= 3) {
      Out.push_back(R);
      continue;
    }
    for (const User *U : Slot->users())
      if (auto *SI = dyn_cast<StoreInst>(U))
        if (SI->getPointerOperand() == Slot)
          slotRoots(SI->getValueOperand(), Out, Depth + 1);
  }
}

void stackSlotRoots(const Value *V, SmallVectorImpl<const Value *> &Out) {
  slotRoots(V, Out, 0);
}

} // namespace tapestry
