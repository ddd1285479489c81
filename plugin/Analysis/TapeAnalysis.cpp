//===- TapeAnalysis.cpp - What the reverse sweep caches or recomputes -----===//
//
// Implements TapeAnalysis.h: planTape asks LLVM's alias analysis, within a
// budget of queries, which loads no write in the function may clobber (the
// reverse sweep reloads them), which calls to callees that write no memory
// (writesMemory) can be repeated, and which BLAS operands stay unclobbered;
// restrictToLocalMemory narrows the plan for split mode, where the caller may
// overwrite memory between the halves. isDeferredFree tells the reverse
// synthesizer which frees the forward sweep performs itself. The plan is
// consumed by Synthesis/ReverseValueCache; nothing here emits IR.
//
//===----------------------------------------------------------------------===//
#include "Analysis/TapeAnalysis.h"

#include "Analysis/ActivityAnalysis.h"
#include "Core/AllocationFunctions.h"
#include "Core/AllocationLike.h"
#include "Core/BlasFunctions.h"
#include "Core/MathFunctions.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tapestry"

using namespace llvm;

STATISTIC(NumTapePlans, "Tape plans (one per reverse derivative)");
STATISTIC(NumReloadableLoads,
          "Loads the reverse sweep repeats instead of taping their values");
STATISTIC(NumRepeatableCalls,
          "Calls the reverse sweep runs again instead of taping their work");

namespace tapestry {

/// Above this many load/write pairs, reloading is not attempted: caching is
/// always correct, only larger.
static constexpr unsigned MaxAliasQueries = 200000;

bool isDeferredFree(const CallBase &CB, const LoopInfo &Loops) {
  if (!isDeallocationCall(CB) || CB.arg_size() < 1)
    return false;
  auto *Alloc = dyn_cast<CallBase>(getUnderlyingObject(freedPointer(CB), 0));
  if (!Alloc || !isAllocationCall(*Alloc) ||
      Alloc->getFunction() != CB.getFunction())
    return false;
  // A registered allocator's block is replayed only by its deallocator
  // (another free of it is the inlined code of some deallocator, freeing
  // an address that need not be the block's).
  if (std::optional<CustomAllocator> CA =
          customAllocator(*Alloc->getCalledFunction());
      CA && CA->Dealloc != CB.getCalledFunction())
    return false;
  const Loop *AllocLoop = Loops.getLoopFor(Alloc->getParent());
  return !AllocLoop || AllocLoop->contains(CB.getParent());
}

TapePlan planTape(Function &F, AAResults &AA, const DominatorTree &DT,
                  const LoopInfo &Loops) {
  TapePlan Plan;
  ++NumTapePlans;
  SmallVector<LoadInst *, 32> Loads;
  SmallVector<Instruction *, 32> Writes;
  for (Instruction &I : instructions(F)) {
    if (auto *LI = dyn_cast<LoadInst>(&I)) {
      if (LI->isSimple())
        Loads.push_back(LI);
    } else if (I.mayWriteToMemory()) {
      // Math functions write only errno, which a reload never reads.
      auto *CB = dyn_cast<CallBase>(&I);
      Function *Callee = CB ? CB->getCalledFunction() : nullptr;
      bool PureBody =
          Callee && !Callee->isDeclaration() && !writesMemory(*Callee);
      if (!CB ||
          (!isDeferredFree(*CB, Loops) &&
           !(findMathFunction(*CB) && !mathWritesMemory(*CB)) && !PureBody))
        Writes.push_back(&I);
    }
  }
  if ((uint64_t)Loads.size() * Writes.size() > MaxAliasQueries) {
    LLVM_DEBUG(dbgs() << "tapestry: tape of " << F.getName() << ": "
                      << Loads.size() << " loads x " << Writes.size()
                      << " writes is past the alias query limit; every "
                         "value needed is taped\n");
    Plan.TooManyQueries = true;
    return Plan;
  }
  for (LoadInst *Load : Loads) {
    MemoryLocation Loc = MemoryLocation::getBeforeOrAfter(
        Load->getPointerOperand(), Load->getAAMetadata());
    // Only writes that can run after the load change what a reload in
    // the reverse sweep would read.
    auto Written = find_if(Writes, [&](Instruction *W) {
      return isModSet(AA.getModRefInfo(W, Loc)) &&
             isPotentiallyReachable(Load, W, nullptr, &DT, &Loops);
    });
    if (Written == Writes.end())
      Plan.Reloadable.insert(Load);
    else
      Plan.Clobbers[Load] = *Written;
  }
  for (Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    Function *Callee = CB ? CB->getCalledFunction() : nullptr;
    if (!Callee || Callee->isDeclaration() || writesMemory(*Callee))
      continue;
    bool Clobbered = false;
    for (Value *A : CB->args()) {
      if (!A->getType()->isPointerTy())
        continue;
      MemoryLocation Loc = MemoryLocation::getBeforeOrAfter(A);
      Clobbered |= any_of(Writes, [&](Instruction *W) {
        return isModSet(AA.getModRefInfo(W, Loc)) &&
               isPotentiallyReachable(CB, W, nullptr, &DT, &Loops);
      });
    }
    if (!Clobbered)
      Plan.Repeatable.insert(CB);
  }
  // A BLAS call writes only its output array; the other calls' later runs
  // count like any write.
  for (Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    std::optional<BlasCall> BC = CB ? findBlasCall(*CB) : std::nullopt;
    if (!BC)
      continue;
    BlasArg OutArg = blasOutput(*BC);
    const Value *Out = OutArg == BlasArg::NumArgs
                           ? nullptr
                           : CB->getArgOperand(BC->index(OutArg));
    bool InLoop = Loops.getLoopFor(CB->getParent()) != nullptr;
    for (BlasArg Arg : {BlasArg::A, BlasArg::B, BlasArg::X, BlasArg::Y}) {
      if (!BC->has(Arg))
        continue;
      const Use &U = CB->getArgOperandUse(BC->index(Arg));
      if (U.get() == Out)
        continue;
      MemoryLocation Loc = MemoryLocation::getBeforeOrAfter(U.get());
      bool Clobbered = any_of(Writes, [&](Instruction *W) {
        if (W == CB)
          return InLoop && Out &&
                 !AA.isNoAlias(MemoryLocation::getBeforeOrAfter(Out), Loc);
        return isModSet(AA.getModRefInfo(W, Loc)) &&
               isPotentiallyReachable(CB, W, nullptr, &DT, &Loops);
      });
      if (!Clobbered)
        Plan.UnclobberedBlasOperands.insert(&U);
    }
  }
  NumReloadableLoads += Plan.Reloadable.size();
  NumRepeatableCalls += Plan.Repeatable.size();
  return Plan;
}

void restrictToLocalMemory(TapePlan &Plan) {
  SmallVector<const LoadInst *, 16> Caller;
  for (const LoadInst *Load : Plan.Reloadable) {
    const Value *Obj = getUnderlyingObject(Load->getPointerOperand(), 0);
    bool Local = isa<AllocaInst>(Obj);
    if (auto *CB = dyn_cast<CallBase>(Obj))
      Local = isAllocationCall(*CB) && CB->getFunction() == Load->getFunction();
    if (auto *GV = dyn_cast<GlobalVariable>(Obj))
      Local = GV->isConstant();
    if (!Local)
      Caller.push_back(Load);
  }
  for (const LoadInst *Load : Caller) {
    Plan.Reloadable.erase(Load);
    Plan.Clobbers[Load] = nullptr;
  }
  SmallVector<const Use *, 8> Outside;
  for (const Use *U : Plan.UnclobberedBlasOperands)
    if (!isa<AllocaInst>(getUnderlyingObject(U->get(), 0)))
      Outside.push_back(U);
  for (const Use *U : Outside)
    Plan.UnclobberedBlasOperands.erase(U);
}

bool writesMemory(Function &F) {
  SmallVector<Function *, 8> Work{&F};
  SmallPtrSet<Function *, 8> Seen{&F};
  while (!Work.empty()) {
    Function *Cur = Work.pop_back_val();
    for (Instruction &I : instructions(*Cur)) {
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        Function *Callee = CB->getCalledFunction();
        if (Callee && !Callee->isDeclaration()) {
          if (Seen.insert(Callee).second)
            Work.push_back(Callee);
          continue;
        }
        if ((findMathFunction(*CB) && !mathWritesMemory(*CB)) ||
            isInactiveCall(*CB) || CB->onlyReadsMemory())
          continue;
        return true;
      }
      if (I.mayWriteToMemory() && !isa<AllocaInst>(I)) {
        // Stores to the function's own stack are invisible to callers.
        if (auto *SI = dyn_cast<StoreInst>(&I))
          if (isa<AllocaInst>(getUnderlyingObject(SI->getPointerOperand(), 0)))
            continue;
        if (auto *MI = dyn_cast<MemIntrinsic>(&I))
          if (isa<AllocaInst>(getUnderlyingObject(MI->getDest(), 0)))
            continue;
        return true;
      }
    }
  }
  return false;
}

} // namespace tapestry
