//===- TapeAnalysis.cpp ---------------------------------------------------===//
#include "Analysis/TapeAnalysis.h"

#include "Analysis/ActivityAnalysis.h"
#include "Core/MathFunctions.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace tapestry {

/// Above this many load/write pairs, reloading is not attempted: caching is
/// always correct, only larger.
static constexpr unsigned MaxAliasQueries = 200000;

bool isDeferredFree(const CallBase &CB) {
  if (!isDeallocationCall(CB) || CB.arg_size() < 1)
    return false;
  auto *Alloc = dyn_cast<CallBase>(getUnderlyingObject(CB.getArgOperand(0), 0));
  return Alloc && isAllocationCall(*Alloc) &&
         Alloc->getFunction() == CB.getFunction();
}

TapePlan planTape(Function &F, AAResults &AA, const DominatorTree &DT,
                  const LoopInfo &Loops) {
  TapePlan Plan;
  SmallVector<LoadInst *, 32> Loads;
  SmallVector<Instruction *, 32> Writes;
  for (Instruction &I : instructions(F)) {
    if (auto *LI = dyn_cast<LoadInst>(&I)) {
      if (LI->isSimple())
        Loads.push_back(LI);
    } else if (I.mayWriteToMemory()) {
      // Math functions write only errno, which a reload never reads.
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || (!isDeferredFree(*CB) && !findMathFunction(*CB)))
        Writes.push_back(&I);
    }
  }
  if ((uint64_t)Loads.size() * Writes.size() > MaxAliasQueries)
    return Plan;
  for (LoadInst *Load : Loads) {
    MemoryLocation Loc = MemoryLocation::getBeforeOrAfter(
        Load->getPointerOperand(), Load->getAAMetadata());
    // Only writes that can run after the load change what a reload in
    // the reverse sweep would read.
    bool Written = any_of(Writes, [&](Instruction *W) {
      return isModSet(AA.getModRefInfo(W, Loc)) &&
             isPotentiallyReachable(Load, W, nullptr, &DT, &Loops);
    });
    if (!Written)
      Plan.Reloadable.insert(Load);
  }
  return Plan;
}

} // namespace tapestry
