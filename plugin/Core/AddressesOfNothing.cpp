//===- AddressesOfNothing.cpp - Constant addresses with no object ---------===//
//
// Implements AddressesOfNothing.h with LLVM's underlying-object queries:
// the object is found through GEPs and casts, then must be null or an
// `inttoptr` of a constant integer.
//
//===----------------------------------------------------------------------===//
#include "Core/AddressesOfNothing.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instruction.h"

using namespace llvm;

namespace tapestry {

bool isAddressOfNothing(const Value *Ptr) {
  const Value *Base = getUnderlyingObject(Ptr, 0);
  if (isa<ConstantPointerNull>(Base))
    return true;
  auto *CE = dyn_cast<ConstantExpr>(Base);
  return CE && CE->getOpcode() == Instruction::IntToPtr &&
         isa<ConstantInt>(CE->getOperand(0));
}

bool pointsOnlyToNothing(const Value *Ptr) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects, nullptr, 0);
  return !Objects.empty() &&
         all_of(Objects, [](const Value *O) { return isAddressOfNothing(O); });
}

} // namespace tapestry
