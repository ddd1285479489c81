//===- GlobalContentReads.cpp - Reads through pointers kept in globals ----===//
//
// Implements GlobalContentReads.h: a walk over the uses of a global's address
// in each promoted copy, giving every value a level (the global's address, or
// a pointer read from it), with a summary per function, parameter and level
// for the calls it meets.
//
//===----------------------------------------------------------------------===//
#include "Analysis/GlobalContentReads.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace tapestry {

/// The walk's state in one function.
struct GlobalContentReads::Frame {
  DenseMap<const Value *, unsigned> Levels;
  /// For a pointer read from the global, where it was read in this
  /// function (null if it came in as an argument).
  DenseMap<const Value *, const Instruction *> Origin;
  SmallVector<const Value *, 16> Work;
  unsigned Returns = 0;
  std::vector<Read> Reads;

  void add(const Value &V, unsigned L, const Instruction *From) {
    unsigned &Has = Levels[&V];
    if ((Has | L) == Has)
      return;
    Has |= L;
    Origin.try_emplace(&V, From);
    Work.push_back(&V);
  }
};

std::vector<GlobalContentReads::Read>
GlobalContentReads::find(const GlobalVariable &G) {
  // A frame per copy using the global, and per caller of a copy that
  // returns its address or a pointer read from it (an accessor, a
  // singleton's get()).
  std::map<const Function *, Frame> Frames;
  for (auto &[F, Copy] : Copies) {
    Frame *Fr = nullptr;
    for (Instruction &I : instructions(*Copy))
      for (const Use &Op : I.operands())
        if (isa<Constant>(Op.get()) && getUnderlyingObject(Op.get()) == &G) {
          if (!Fr)
            Fr = &Frames[F];
          Fr->Levels[Op.get()] = Address;
          follow(*Fr, I, *Op.get(), 0);
        }
  }
  std::map<const Function *, unsigned> Returned;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto &[F, Fr] : Frames) {
      while (!Fr.Work.empty()) {
        const Value *V = Fr.Work.pop_back_val();
        for (const User *U : V->users())
          follow(Fr, *U, *V, 0);
      }
      unsigned &Done = Returned[F];
      if ((Done | Fr.Returns) == Done)
        continue;
      Done |= Fr.Returns;
      for (const User *U : F->users())
        if (const auto *CB = dyn_cast<CallBase>(U);
            CB && CB->getCalledFunction() == F &&
            Originals.count(CB->getFunction()))
          // (std::map: references to other frames stay valid.)
          Frames[Originals.lookup(CB->getFunction())].add(*CB, Done, CB);
      Changed = true;
    }
  }
  std::vector<Read> Result;
  for (auto &[F, Fr] : Frames)
    Result.insert(Result.end(), Fr.Reads.begin(), Fr.Reads.end());
  return Result;
}

void GlobalContentReads::follow(Frame &Fr, const User &U, const Value &V,
                                unsigned Depth) {
  unsigned L = Fr.Levels.lookup(&V);
  const Instruction *From = Fr.Origin.lookup(&V);
  const auto *I = dyn_cast<Instruction>(&U);
  if (!I)
    return;
  if (const auto *GEP = dyn_cast<GetElementPtrInst>(I)) {
    if (GEP->getPointerOperand() == &V)
      Fr.add(*GEP, L, From);
    return;
  }
  if (isa<BitCastInst>(I) || isa<AddrSpaceCastInst>(I) || isa<PHINode>(I) ||
      isa<FreezeInst>(I)) {
    Fr.add(*I, L, From);
    return;
  }
  if (const auto *Sel = dyn_cast<SelectInst>(I)) {
    if (Sel->getCondition() != &V)
      Fr.add(*Sel, L, From);
    return;
  }
  if (const auto *LI = dyn_cast<LoadInst>(I)) {
    if (LI->getPointerOperand() != &V)
      return;
    if (LI->getType()->isPtrOrPtrVectorTy())
      Fr.add(*LI, Content, (L & Address) ? LI : From);
    else if ((L & Content) && LI->getType()->isFPOrFPVectorTy() &&
             !LI->use_empty())
      Fr.Reads.push_back({LI->getFunction(), LI, From});
    return;
  }
  if (isa<ReturnInst>(I)) {
    Fr.Returns |= L;
    return;
  }
  // Kept in a local slot (an iterator, a range-for's cursor, a struct of
  // pointers): what is loaded back from the slot is read from the global
  // (review31b p9: `for (double v : *cache)`).
  if (const auto *SI = dyn_cast<StoreInst>(I)) {
    if (SI->getValueOperand() == &V)
      if (const auto *Slot = dyn_cast<AllocaInst>(
              getUnderlyingObject(SI->getPointerOperand())))
        Fr.add(*Slot, Address, From);
    return;
  }
  const auto *CB = dyn_cast<CallBase>(I);
  if (!CB || isa<DbgInfoIntrinsic>(CB) || CB->isLifetimeStartOrEnd())
    return;
  Function *Callee = CB->getCalledFunction();
  if (!Callee || !Copies.count(Callee) || Depth >= MaxDepth)
    return;
  for (unsigned J = 0; J < CB->arg_size(); ++J) {
    if (CB->getArgOperand(J) != &V)
      continue;
    Summary S = summary(*Callee, J, L, Depth + 1);
    const Instruction *Here = (L & Address) ? CB : From;
    if (S.Returns)
      Fr.add(*CB, S.Returns, Here);
    if (S.ReadsFloatingPoint)
      Fr.Reads.push_back({CB->getFunction(), CB, Here});
  }
}

const GlobalContentReads::Summary &GlobalContentReads::summary(Function &F,
                                                               unsigned ArgNo,
                                                               unsigned Levels,
                                                               unsigned Depth) {
  auto Key = std::make_tuple(&F, ArgNo, Levels);
  if (auto It = Summaries.find(Key); It != Summaries.end())
    return It->second; // done, or in progress (recursion): what is known
  Summaries[Key] = Summary();
  Function &Copy = *Copies.lookup(&F);
  if (ArgNo >= Copy.arg_size())
    return Summaries[Key];
  Frame Fr;
  Fr.add(*Copy.getArg(ArgNo), Levels, nullptr);
  while (!Fr.Work.empty()) {
    const Value *V = Fr.Work.pop_back_val();
    for (const User *U : V->users())
      follow(Fr, *U, *V, Depth);
  }
  Summary &S = Summaries[Key];
  S.Returns = Fr.Returns;
  S.ReadsFloatingPoint = !Fr.Reads.empty();
  return S;
}

} // namespace tapestry
