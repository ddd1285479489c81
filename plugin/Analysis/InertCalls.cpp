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
/// or is the call \p CB: the slot's shadow then stays zero.
static bool slotNeverHoldsDerivative(const AllocaInst &Slot, const CallBase &CB,
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
        // A copy out of the slot reads it.
        if (const auto *MT = dyn_cast<MemTransferInst>(II);
            MT && U.getOperandNo() == 1 &&
            getUnderlyingObject(MT->getDest()) != &Slot)
          continue;
        return false;
      }
      if (User == &CB)
        continue;
      return false;
    }
  }
  return true;
}

bool receivesNoDerivative(const CallBase &CB, const ActivityInfo &AI) {
  for (const Value *Op : CB.args()) {
    if (AI.isVaried(Op))
      return false;
    if (!Op->getType()->isPointerTy() || !AI.hasShadow(Op))
      continue;
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(Op, Objects);
    for (const Value *Obj : Objects) {
      const auto *Slot = dyn_cast<AllocaInst>(Obj);
      if (!Slot || !slotNeverHoldsDerivative(*Slot, CB, AI))
        return false;
    }
  }
  return true;
}

} // namespace tapestry
