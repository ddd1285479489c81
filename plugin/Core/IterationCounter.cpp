//===- IterationCounter.cpp - Enzyme's __enzyme_iter(N, K) ----------------===//
//
// Implements IterationCounter.h: recognising a well-formed __enzyme_iter call
// (and the message for a malformed one), advanceIterationCounters, which adds K
// to the counters of a prepared clone (Synthesis/PrimalPreparation calls it
// once per differentiation), declareIterationCountersPure, and
// lowerIterationCounters, which replaces each remaining call by its first
// argument once the pass has resolved every request.
//
//===----------------------------------------------------------------------===//
#include "Core/IterationCounter.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace tapestry {

bool isIterationCounterName(StringRef Name) {
  return Name.contains("__enzyme_iter");
}

bool isIterationCounterCall(const CallBase &CB) {
  const auto *F =
      dyn_cast<Function>(CB.getCalledOperand()->stripPointerCasts());
  return F && F->isDeclaration() && isIterationCounterName(F->getName());
}

std::string iterationCounterProblem(const CallBase &CB) {
  Type *T = CB.getType();
  if (CB.arg_size() == 2 && T->isIntegerTy() &&
      CB.getArgOperand(0)->getType() == T &&
      CB.getArgOperand(1)->getType() == T)
    return "";
  return "__enzyme_iter(N, K) takes two integers and returns one of the "
         "same type (N in the primal, N + K more for each differentiation "
         "of the code calling it); declare it as 'uint64_t "
         "__enzyme_iter(uint64_t, uint64_t);'";
}

/// The well-formed counter calls in \p F.
static SmallVector<CallBase *, 4> counterCalls(Function &F) {
  SmallVector<CallBase *, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (isIterationCounterCall(*CB) && iterationCounterProblem(*CB).empty())
        Calls.push_back(CB);
  return Calls;
}

void advanceIterationCounters(Function &F) {
  for (CallBase *CB : counterCalls(F)) {
    IRBuilder<> B(CB);
    CB->setArgOperand(
        0, B.CreateAdd(CB->getArgOperand(0), CB->getArgOperand(1), "iter"));
  }
}

void declareIterationCountersPure(Module &M) {
  for (Function &F : M)
    if (F.isDeclaration() && isIterationCounterName(F.getName())) {
      F.setDoesNotAccessMemory();
      F.setDoesNotThrow();
      F.setWillReturn();
    }
}

void lowerIterationCounters(Module &M) {
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    for (CallBase *CB : counterCalls(F)) {
      CB->replaceAllUsesWith(CB->getArgOperand(0));
      // A C++ call may be an invoke: its normal path continues.
      if (auto *II = dyn_cast<InvokeInst>(CB))
        CB = changeToCall(II);
      CB->eraseFromParent();
    }
  }
}

} // namespace tapestry
