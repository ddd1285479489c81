//===- TapeAnalysis.cpp ---------------------------------------------------===//
#include "Analysis/TapeAnalysis.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace tapestry {

/// Above this many load/write pairs, reloading is not attempted: caching is
/// always correct, only larger.
static constexpr unsigned MaxAliasQueries = 200000;

TapePlan planTape(Function &F, AAResults &AA) {
  TapePlan Plan;
  SmallVector<LoadInst *, 32> Loads;
  SmallVector<Instruction *, 32> Writes;
  for (Instruction &I : instructions(F)) {
    if (auto *LI = dyn_cast<LoadInst>(&I)) {
      if (LI->isSimple())
        Loads.push_back(LI);
    } else if (I.mayWriteToMemory()) {
      Writes.push_back(&I);
    }
  }
  if ((uint64_t)Loads.size() * Writes.size() > MaxAliasQueries)
    return Plan;
  for (LoadInst *LI : Loads) {
    MemoryLocation Loc = MemoryLocation::getBeforeOrAfter(
        LI->getPointerOperand(), LI->getAAMetadata());
    bool Written = any_of(Writes, [&](Instruction *W) {
      return isModSet(AA.getModRefInfo(W, Loc));
    });
    if (!Written)
      Plan.Reloadable.insert(LI);
  }
  return Plan;
}

} // namespace tapestry
