//===- UnneededPrimalWrites.cpp - writes enzyme_dupnoneed drops -----------===//
//
// Implements UnneededPrimalWrites.h: isOnlyWritten decides whether an
// enzyme_dupnoneed argument is only written (never read, never passed on or
// escaping), and findUnneededPrimalWrites returns the stores and memory
// intrinsics whose every destination object is such an argument, for
// SynthesizerBase::dropUnneededPrimalWrites to erase from the derivative.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/UnneededPrimalWrites.h"

#include "Core/DiffRequest.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

#define DEBUG_TYPE "tapestry"

using namespace llvm;

namespace tapestry {

namespace {

/// Whether the memory behind \p A is only ever written, through pointers
/// derived from it, and never read or handed on.
bool isOnlyWritten(Argument &A) {
  SmallVector<Value *, 16> Work{&A};
  SmallPtrSet<Value *, 16> Seen{&A};
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (User *U : V->users()) {
      auto *I = dyn_cast<Instruction>(U);
      if (!I)
        return false;
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode,
              SelectInst>(I)) {
        if (Seen.insert(I).second)
          Work.push_back(I);
        continue;
      }
      if (isa<ICmpInst>(I) || I->isLifetimeStartOrEnd() ||
          isa<DbgInfoIntrinsic>(I))
        continue;
      if (auto *SI = dyn_cast<StoreInst>(I)) {
        if (SI->getValueOperand() == V || SI->isVolatile())
          return false;
        continue;
      }
      if (auto *MS = dyn_cast<MemSetInst>(I)) {
        if (MS->getDest() != V || MS->isVolatile())
          return false;
        continue;
      }
      if (auto *MT = dyn_cast<MemTransferInst>(I)) {
        if (MT->getSource() == V || MT->isVolatile())
          return false;
        continue;
      }
      return false; // A read, a call, an escape.
    }
  }
  return true;
}

Value *writtenPointer(Instruction &I) {
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return SI->getPointerOperand();
  if (auto *MI = dyn_cast<MemIntrinsic>(&I))
    return MI->getDest();
  return nullptr;
}

} // namespace

SmallVector<Instruction *, 8> findUnneededPrimalWrites(Function &P,
                                                       const DiffRequest &R) {
  SmallVector<Instruction *, 8> Writes;
  SmallPtrSet<const Value *, 4> Unneeded;
  for (unsigned I = 0; I < P.arg_size() && I < R.Args.size(); ++I)
    if (R.Args[I] == Activity::DupNoNeed &&
        P.getArg(I)->getType()->isPointerTy() && isOnlyWritten(*P.getArg(I)))
      Unneeded.insert(P.getArg(I));
  if (Unneeded.empty())
    return Writes;
  for (Instruction &I : instructions(P)) {
    Value *Ptr = writtenPointer(I);
    if (!Ptr)
      continue;
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(Ptr, Objects);
    if (!Objects.empty() &&
        all_of(Objects, [&](const Value *O) { return Unneeded.count(O); }))
      Writes.push_back(&I);
  }
  LLVM_DEBUG(dbgs() << "tapestry: " << Writes.size()
                    << " primal writes into enzyme_dupnoneed memory dropped\n");
  return Writes;
}

} // namespace tapestry
