//===- InertCalls.cpp - Calls whose inputs carry no derivative ------------===//
//
// Implements InertCalls.h: follows each shadowed pointer argument to its
// stack slots and checks every use of their addresses.
//
//===----------------------------------------------------------------------===//
#include "Analysis/InertCalls.h"

#include "Analysis/ActivityAnalysis.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace tapestry {

/// True if every use of the address \p Slot (an alloca), through address
/// arithmetic, reads it, or writes it with values that carry no derivative,
/// or is \p Except: the slot's shadow then stays zero.
static bool slotNeverHoldsDerivative(const AllocaInst &Slot,
                                     const Instruction &Except,
                                     const ActivityInfo &AI) {
  SmallVector<const Value *, 8> Work{&Slot};
  SmallPtrSet<const Value *, 8> Seen{&Slot};
  while (!Work.empty()) {
    const Value *Addr = Work.pop_back_val();
    for (const Use &U : Addr->uses()) {
      const auto *User = cast<Instruction>(U.getUser());
      if (isa<GetElementPtrInst>(User) || isa<BitCastInst>(User) ||
          isa<AddrSpaceCastInst>(User) || isa<PHINode>(User) ||
          isa<SelectInst>(User)) {
        if (Seen.insert(User).second)
          Work.push_back(User);
        continue;
      }
      if (isa<LoadInst>(User) || isa<ICmpInst>(User))
        continue;
      if (const auto *SI = dyn_cast<StoreInst>(User)) {
        const Value *V = SI->getValueOperand();
        if (U.getOperandNo() != StoreInst::getPointerOperandIndex() ||
            V->getType()->isPtrOrPtrVectorTy() || AI.isVaried(V))
          return false;
        continue;
      }
      if (const auto *II = dyn_cast<IntrinsicInst>(User)) {
        if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II) ||
            isa<MemSetInst>(II))
          continue;
        // A copy out of the slot reads it; one into it from memory without
        // a shadow (an initializer's constant) writes no derivative.
        if (const auto *MT = dyn_cast<MemTransferInst>(II);
            MT && ((U.getOperandNo() == 1 &&
                    getUnderlyingObject(MT->getDest()) != &Slot) ||
                   (U.getOperandNo() == 0 && !AI.hasShadow(MT->getSource()))))
          continue;
        return false;
      }
      if (User == &Except)
        continue;
      return false;
    }
  }
  return true;
}

bool pointsToMemoryWithoutDerivative(const Value *Ptr,
                                     const Instruction &Except,
                                     const ActivityInfo &AI) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  return all_of(Objects, [&](const Value *Obj) {
    const auto *Slot = dyn_cast<AllocaInst>(Obj);
    return Slot && slotNeverHoldsDerivative(*Slot, Except, AI);
  });
}

bool receivesNoDerivative(const CallBase &CB, const ActivityInfo &AI) {
  for (const Value *Op : CB.args()) {
    if (AI.isVaried(Op))
      return false;
    if (Op->getType()->isPointerTy() && AI.hasShadow(Op) &&
        !pointsToMemoryWithoutDerivative(Op, CB, AI))
      return false;
  }
  return true;
}

} // namespace tapestry
