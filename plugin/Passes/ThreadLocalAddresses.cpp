//===- ThreadLocalAddresses.cpp - thread_local globals by name ------------===//
//
// Implements ThreadLocalAddresses.h.
//
//===----------------------------------------------------------------------===//
#include "Passes/ThreadLocalAddresses.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace tapestry {

bool useThreadLocalGlobalsDirectly(Function &F) {
  if (F.isDeclaration() || F.isPresplitCoroutine())
    return false;
  SmallVector<IntrinsicInst *, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I);
        II && II->getIntrinsicID() == Intrinsic::threadlocal_address)
      Calls.push_back(II);
  for (IntrinsicInst *II : Calls) {
    II->replaceAllUsesWith(II->getArgOperand(0));
    II->eraseFromParent();
  }
  return !Calls.empty();
}

} // namespace tapestry
