//===- AddressIntegers.cpp - Where an address turned integer goes ---------===//
//
// Implements AddressIntegers.h by a walk over the integer's users.
//
//===----------------------------------------------------------------------===//
#include "Core/AddressIntegers.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace tapestry {

bool addressEscapesAsInteger(const Value *Int) {
  SmallVector<const Value *, 8> Work{Int};
  SmallPtrSet<const Value *, 8> Seen{Int};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (isa<ICmpInst>(U))
        continue;
      if (auto *BO = dyn_cast<BinaryOperator>(U);
          BO && BO->getOpcode() == Instruction::Sub &&
          !isa<Constant>(BO->getOperand(0)) &&
          !isa<Constant>(BO->getOperand(1)))
        continue;
      if (isa<BinaryOperator>(U) || isa<PHINode>(U) || isa<SelectInst>(U) ||
          (isa<CastInst>(U) && !isa<IntToPtrInst>(U))) {
        if (Seen.insert(U).second)
          Work.push_back(U);
        continue;
      }
      if (auto *SI = dyn_cast<StoreInst>(U); SI && SI->getValueOperand() != V)
        continue;
      return true;
    }
  }
  return false;
}

} // namespace tapestry
