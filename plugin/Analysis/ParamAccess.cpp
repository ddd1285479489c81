//===- ParamAccess.cpp - Pointer attributes of derivative halves ----------===//
//
// Implements ParamAccess.h: inferParamAccess adds nocapture to each pointer
// parameter that CaptureTracking shows is not captured, and readonly to each
// one that nothing writes through, directly or through a derived pointer handed
// to a call. Split/CalleeSplits calls it on the halves of split callees and
// their wrappers, so that their callers' tapes can be proved replayable; the
// attributes change nothing in the halves themselves.
//
//===----------------------------------------------------------------------===//
#include "Analysis/ParamAccess.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#define DEBUG_TYPE "tapestry-param-access"

using namespace llvm;

STATISTIC(NumReadOnly, "Parameters of split halves proved readonly");
STATISTIC(NumNoCapture, "Parameters of split halves proved nocapture");

namespace tapestry {

/// True if \p F may write memory through \p A or a pointer derived from it
/// (conservatively: also if the address is kept or handed on where it may
/// be written through later).
static bool mayWriteThrough(Argument &A) {
  SmallVector<const Value *, 8> Work{&A};
  SmallPtrSet<const Value *, 8> Seen{&A};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const Use &U : V->uses()) {
      const auto *I = cast<Instruction>(U.getUser());
      if (isa<LoadInst>(I) || isa<ICmpInst>(I))
        continue;
      // A store through it writes; a store of it hands it on.
      if (isa<StoreInst>(I))
        return true;
      if (isa<GetElementPtrInst>(I) || isa<BitCastInst>(I) ||
          isa<AddrSpaceCastInst>(I) || isa<PHINode>(I) || isa<SelectInst>(I)) {
        if (Seen.insert(I).second)
          Work.push_back(I);
        continue;
      }
      if (const auto *CB = dyn_cast<CallBase>(I)) {
        if (CB->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(CB))
          continue;
        if (!CB->isArgOperand(&U) ||
            !CB->onlyReadsMemory(CB->getArgOperandNo(&U)))
          return true;
        continue;
      }
      return true; // Returned, converted to an integer, ...
    }
  }
  return false;
}

void inferParamAccess(Function &F) {
  if (F.isDeclaration())
    return;
  for (Argument &A : F.args()) {
    if (!A.getType()->isPointerTy())
      continue;
    if (!A.hasNoCaptureAttr() &&
        !PointerMayBeCaptured(&A, /*ReturnCaptures=*/true,
                              /*StoreCaptures=*/true)) {
      A.addAttr(Attribute::NoCapture);
      ++NumNoCapture;
    }
    if (!A.onlyReadsMemory() && !mayWriteThrough(A)) {
      A.addAttr(Attribute::ReadOnly);
      ++NumReadOnly;
    }
  }
}

} // namespace tapestry
