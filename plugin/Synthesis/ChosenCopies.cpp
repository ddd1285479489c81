//===- ChosenCopies.cpp - Integer copies chosen among loads ---------------===//
//
// Implements ChosenCopies.h: a stored choice among integer loads becomes a
// load of the choice among their addresses, where MemorySSA shows that no
// write reaches the loaded memory between each load and the store.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/ChosenCopies.h"

#include "Analysis/TypeAnalysis.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/MemorySSA.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

#define DEBUG_TYPE "tapestry"

STATISTIC(NumChosenCopies, "Integer copies chosen among loads made copies");

namespace tapestry {

namespace {

/// The loads of one stored choice.
struct Choice {
  SmallVector<LoadInst *, 4> Loads;
};

} // namespace

/// Collects the choice \p V is made of; false if a value in it is not a
/// phi, a select or a simple load, or a phi takes a value around a loop
/// (which a later run of the load could overwrite before the store).
static bool collectChoice(Value *V, Choice &C, const DominatorTree &DT) {
  SmallVector<Value *, 8> Work{V};
  SmallPtrSet<Value *, 8> Seen{V};
  while (!Work.empty()) {
    Value *X = Work.pop_back_val();
    SmallVector<Value *, 4> Ins;
    if (auto *LI = dyn_cast<LoadInst>(X)) {
      if (!LI->isSimple())
        return false;
      C.Loads.push_back(LI);
      continue;
    }
    if (auto *Sel = dyn_cast<SelectInst>(X)) {
      Ins = {Sel->getTrueValue(), Sel->getFalseValue()};
    } else if (auto *Phi = dyn_cast<PHINode>(X)) {
      for (BasicBlock *From : Phi->blocks())
        if (DT.dominates(Phi->getParent(), From))
          return false;
      append_range(Ins, Phi->incoming_values());
    } else {
      return false;
    }
    for (Value *In : Ins)
      if (Seen.insert(In).second)
        Work.push_back(In);
  }
  return true;
}

/// True if no write on any path from \p LI to \p SI may change the memory
/// \p LI read.
static bool unchangedUntil(LoadInst *LI, StoreInst *SI, MemorySSA &MSSA) {
  MemorySSAWalker *Walker = MSSA.getWalker();
  auto *AtLoad = MSSA.getMemoryAccess(LI);
  auto *AtStore = MSSA.getMemoryAccess(SI);
  if (!AtLoad || !AtStore)
    return false;
  MemoryLocation Loc = MemoryLocation::get(LI);
  return Walker->getClobberingMemoryAccess(AtStore->getDefiningAccess(), Loc) ==
         Walker->getClobberingMemoryAccess(AtLoad);
}

/// The same choice as \p V among the addresses (of type \p PtrTy) of its
/// loads, built beside it.
static Value *addressChoice(Value *V, Type *PtrTy,
                            DenseMap<Value *, Value *> &Built) {
  if (Value *Done = Built.lookup(V))
    return Done;
  if (auto *LI = dyn_cast<LoadInst>(V))
    return LI->getPointerOperand();
  if (auto *Sel = dyn_cast<SelectInst>(V)) {
    Value *T = addressChoice(Sel->getTrueValue(), PtrTy, Built);
    Value *F = addressChoice(Sel->getFalseValue(), PtrTy, Built);
    return Built[V] =
               SelectInst::Create(Sel->getCondition(), T, F,
                                  Sel->getName() + ".addr", Sel->getIterator());
  }
  auto *Phi = cast<PHINode>(V);
  PHINode *New = PHINode::Create(PtrTy, Phi->getNumIncomingValues(),
                                 Phi->getName() + ".addr", Phi->getIterator());
  Built[V] = New;
  for (unsigned I = 0, E = Phi->getNumIncomingValues(); I != E; ++I)
    New->addIncoming(addressChoice(Phi->getIncomingValue(I), PtrTy, Built),
                     Phi->getIncomingBlock(I));
  return New;
}

bool loadChosenCopiesWhereStored(Function &F, FunctionAnalysisManager &FAM) {
  SmallVector<StoreInst *, 4> Stores;
  for (Instruction &I : instructions(F))
    if (auto *SI = dyn_cast<StoreInst>(&I);
        SI && SI->isSimple() &&
        SI->getValueOperand()->getType()->isIntOrIntVectorTy() &&
        choosesCopiedLoad(*SI->getValueOperand()))
      Stores.push_back(SI);
  if (Stores.empty())
    return false;
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  MemorySSA &MSSA = FAM.getResult<MemorySSAAnalysis>(F).getMSSA();
  SmallVector<std::pair<StoreInst *, Choice>, 4> Rewrites;
  for (StoreInst *SI : Stores) {
    Choice C;
    if (!collectChoice(SI->getValueOperand(), C, DT) || C.Loads.empty() ||
        any_of(C.Loads, [&](LoadInst *LI) {
          return LI->getPointerOperandType() !=
                     C.Loads.front()->getPointerOperandType() ||
                 !unchangedUntil(LI, SI, MSSA);
        }))
      continue;
    Rewrites.push_back({SI, std::move(C)});
  }
  // MemorySSA is not kept up to date: every question is asked first.
  SmallVector<WeakTrackingVH, 8> Dead;
  for (auto &[SI, C] : Rewrites) {
    DenseMap<Value *, Value *> Built;
    Value *Chosen = SI->getValueOperand();
    Value *Addr =
        addressChoice(Chosen, C.Loads.front()->getPointerOperandType(), Built);
    Align A = C.Loads.front()->getAlign();
    for (LoadInst *LI : C.Loads)
      A = std::min(A, LI->getAlign());
    auto *Copy =
        new LoadInst(Chosen->getType(), Addr, Chosen->getName() + ".copied",
                     false, A, SI->getIterator());
    Copy->setDebugLoc(SI->getDebugLoc());
    SI->setOperand(0, Copy);
    Dead.push_back(Chosen);
    ++NumChosenCopies;
  }
  for (WeakTrackingVH &V : Dead)
    if (V)
      RecursivelyDeleteTriviallyDeadInstructions(V);
  if (!Rewrites.empty())
    FAM.invalidate(F, PreservedAnalyses::none());
  return !Rewrites.empty();
}

} // namespace tapestry
