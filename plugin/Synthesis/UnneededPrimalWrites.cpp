//===- UnneededPrimalWrites.cpp - writes enzyme_dupnoneed drops -----------===//
//
// Implements UnneededPrimalWrites.h: isOnlyWritten decides whether an
// enzyme_dupnoneed argument is only written (never read, never passed on or
// escaping), and findUnneededPrimalWrites returns the stores and memory
// intrinsics whose every destination object is such an argument, for
// SynthesizerBase::dropUnneededPrimalWrites to erase from the derivative.
// updatesOnlyItself follows the pointers derived from an argument and the
// values loaded through them (only arithmetic on the way to a store back);
// dropSelfUpdates removes such loads and stores from a forward derivative
// with LLVM's dead-code reasoning (no side effects, no remaining users).
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

/// The pointers derived from \p A (through GEPs and casts, and phis and
/// selects all of whose inputs are derived from it); false if one of them
/// may also point elsewhere.
bool derivedPointers(const Value &A, SmallPtrSetImpl<const Value *> &Out) {
  SmallVector<const Value *, 16> Work{&A};
  Out.insert(&A);
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (!isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode,
               SelectInst>(U))
        continue;
      if (isa<SelectInst>(U) && cast<SelectInst>(U)->getCondition() == V)
        continue;
      if (Out.insert(U).second)
        Work.push_back(U);
    }
  }
  for (const Value *V : Out) {
    if (auto *Phi = dyn_cast<PHINode>(V))
      if (!all_of(Phi->incoming_values(),
                  [&](const Value *In) { return Out.count(In); }))
        return false;
    if (auto *Sel = dyn_cast<SelectInst>(V))
      if (!Out.count(Sel->getTrueValue()) || !Out.count(Sel->getFalseValue()))
        return false;
  }
  return true;
}

/// Whether the value \p V (loaded through \p Based) only flows into stores
/// through \p Based, through operations linear in it whose tangents never
/// use it (sums, negation, conversions, phis, selects between values, lane
/// moves): no derivative then needs the value loaded.
bool feedsOnlyStoresInto(const Value *V,
                         const SmallPtrSetImpl<const Value *> &Based) {
  SmallVector<const Value *, 16> Work{V};
  SmallPtrSet<const Value *, 16> Seen{V};
  while (!Work.empty()) {
    const Value *X = Work.pop_back_val();
    for (const User *U : X->users()) {
      if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getValueOperand() != X || !Based.count(SI->getPointerOperand()))
          return false;
        continue;
      }
      auto *I = dyn_cast<Instruction>(U);
      if (!I)
        return false;
      unsigned Op = I->getOpcode();
      bool Linear =
          Op == Instruction::FAdd || Op == Instruction::FSub ||
          Op == Instruction::FNeg || Op == Instruction::FPExt ||
          Op == Instruction::FPTrunc || Op == Instruction::BitCast ||
          isa<PHINode, ExtractElementInst, InsertElementInst, ShuffleVectorInst,
              ExtractValueInst, InsertValueInst>(I) ||
          (isa<SelectInst>(I) && cast<SelectInst>(I)->getCondition() != X);
      if (!Linear)
        return false;
      if (Seen.insert(U).second)
        Work.push_back(U);
    }
  }
  return true;
}

} // namespace

bool updatesOnlyItself(const Argument &A, unsigned Depth) {
  SmallPtrSet<const Value *, 16> Based;
  if (!derivedPointers(A, Based))
    return false;
  for (const Value *P : Based)
    for (const Use &U : P->uses()) {
      const User *Usr = U.getUser();
      if (Based.count(Usr))
        continue; // address arithmetic, followed above
      if (auto *SI = dyn_cast<StoreInst>(Usr)) {
        if (SI->getValueOperand() == P || SI->isVolatile())
          return false;
        continue;
      }
      if (auto *LI = dyn_cast<LoadInst>(Usr)) {
        if (LI->isVolatile() || !feedsOnlyStoresInto(LI, Based))
          return false;
        continue;
      }
      if (isa<ICmpInst>(Usr))
        continue;
      if (auto *MS = dyn_cast<MemSetInst>(Usr)) {
        if (MS->getDest() != P || MS->isVolatile())
          return false;
        continue;
      }
      auto *CB = dyn_cast<CallBase>(Usr);
      if (!CB)
        return false;
      if (CB->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(CB))
        continue;
      const Function *Callee = CB->getCalledFunction();
      if (!CB->isArgOperand(&U) || !Callee || Callee->isDeclaration() ||
          Callee->isVarArg() || Depth == 0 ||
          !updatesOnlyItself(*Callee->getArg(CB->getArgOperandNo(&U)),
                             Depth - 1))
        return false;
    }
  return true;
}

bool dropSelfUpdates(Function &G, Argument &A) {
  SmallPtrSet<const Value *, 16> Based;
  if (!derivedPointers(A, Based))
    return false;
  // What goes: the stores through A, then every instruction without side
  // effects whose users all go.
  SmallPtrSet<Instruction *, 32> Gone;
  SmallVector<Instruction *, 32> Work;
  auto Consider = [&](Instruction *I) {
    for (Use &Op : I->operands())
      if (auto *OpI = dyn_cast<Instruction>(Op.get()))
        Work.push_back(OpI);
  };
  for (Instruction &I : instructions(G))
    if (auto *SI = dyn_cast<StoreInst>(&I))
      if (Based.count(SI->getPointerOperand()) && !SI->isVolatile()) {
        Gone.insert(SI);
        Consider(SI);
      }
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    if (Gone.count(I) || I->mayHaveSideEffects() || I->isTerminator() ||
        I->use_empty() || !all_of(I->users(), [&](User *U) {
          return Gone.count(cast<Instruction>(U));
        }))
      continue;
    Gone.insert(I);
    Consider(I);
  }
  // Only if nothing else reads the memory's values: a tangent that uses a
  // loaded value keeps everything.
  for (Instruction &I : instructions(G))
    if (auto *LI = dyn_cast<LoadInst>(&I))
      if (Based.count(LI->getPointerOperand()) && !Gone.count(LI))
        return false;
  if (Gone.empty())
    return false;
  for (Instruction *I : Gone)
    I->dropAllReferences();
  for (Instruction *I : Gone)
    I->eraseFromParent();
  LLVM_DEBUG(dbgs() << "tapestry: " << Gone.size()
                    << " instructions updating enzyme_dupnoneed memory "
                       "dropped from "
                    << G.getName() << "\n");
  return true;
}

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
