//===- StoppedCandidates.cpp - Candidates a derivative cannot call --------===//
//
// A call through a function pointer is dispatched over every function of its
// type whose address escapes in the file (Synthesis/IndirectCalls.h), also
// those the differentiated code never reaches: a test harness's lambda, a
// debugging override of a virtual method. One of those that cannot be
// differentiated must not cost the whole derivative. Where the derivative
// fails, it is built again with every candidate stopped (its branch of the
// dispatch prints why and aborts), then with each candidate called again
// unless that fails: the derivative stops only where the pointer holds a
// candidate whose derivative cannot be built, and says why. Each dispatch
// must still call one of its candidates; otherwise, and where stopping
// candidates does not help, the first errors are reported as they were.
//
//===----------------------------------------------------------------------===//
#include "Core/Diagnostics.h"
#include "Driver/DerivativeCache.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tapestry"

using namespace llvm;

STATISTIC(NumStoppedCandidates,
          "Candidates of a dispatch stopped because they cannot be "
          "differentiated");

namespace tapestry {

/// The most distinct candidates tried one by one.
static constexpr size_t MaxCandidatesTried = 16;

void DerivativeCache::forgetFailuresSince(size_t Mark) {
  for (size_t I = Mark; I < Failures.size(); ++I) {
    auto &[T, R] = Failures[I];
    switch (T) {
    case Table::Derivatives:
      if (auto It = Derivatives.find(R); It != Derivatives.end() && !It->second)
        Derivatives.erase(It);
      break;
    case Table::Splits:
      if (auto It = Splits.find(R); It != Splits.end() && !It->second)
        Splits.erase(It);
      break;
    case Table::CalleeSplits:
      if (auto It = CalleeSplits.find(R);
          It != CalleeSplits.end() && !It->second.Augmented)
        CalleeSplits.erase(It);
      break;
    }
  }
  Failures.resize(Mark);
}

namespace {
/// One try at a derivative.
struct Attempt {
  PreparedPrimal PP;
  Function *G = nullptr;
  SplitDerivative Split;
};
} // namespace

/// Erases the functions of a try that another replaces.
static void drop(Attempt &A, FunctionAnalysisManager &FAM) {
  SmallVector<Function *, 3> Built{A.G};
  if (A.Split.Augmented) // A.G is its Reverse
    Built = {A.Split.Augmented, A.Split.Reverse, A.Split.Release};
  for (Function *F : Built) {
    if (!F || !F->use_empty())
      continue;
    FAM.clear(*F, F->getName());
    F->eraseFromParent();
  }
  A = Attempt();
}

Function *DerivativeCache::synthesizeStoppingCandidates(
    const DiffRequest &R, const PreparedPrimal &PP, SplitDerivative *Split) {
  size_t Mark = Failures.size();
  ErrorCapture First;
  if (Function *G = synthesizeFrom(R, PP, Split))
    return G;
  if (First.empty())
    return nullptr;
  if (Split)
    *Split = SplitDerivative();
  SmallVector<Function *, 8> All;
  for (const DispatchedCall &D : PP.Dispatched)
    for (Function *C : D.Candidates)
      if (!is_contained(All, C))
        All.push_back(C);
  if (All.size() > MaxCandidatesTried)
    return nullptr;
  auto Try = [&](const StoppedCandidates &Stopped) {
    // What failed in an earlier try is tried again, and says why.
    forgetFailuresSince(Mark);
    Attempt A;
    A.PP = prepare(*R.Fn, &Stopped);
    if (A.PP.Fn)
      A.G = synthesizeFrom(R, A.PP, Split ? &A.Split : nullptr);
    return A;
  };
  StoppedCandidates Stopped(All.begin(), All.end());
  Attempt Best;
  {
    ErrorCapture Errors;
    Best = Try(Stopped);
    Errors.discard();
  }
  LLVM_DEBUG(dbgs() << "tapestry: " << R.Fn->getName() << " with " << All.size()
                    << " candidates stopped: " << (Best.G ? "built" : "failed")
                    << "\n");
  if (!Best.G)
    return nullptr;
  DenseMap<Function *, std::string> Why;
  for (Function *C : All) {
    StoppedCandidates Fewer = Stopped;
    Fewer.erase(C);
    ErrorCapture Errors;
    Attempt A = Try(Fewer);
    LLVM_DEBUG(dbgs() << "tapestry: " << R.Fn->getName() << " calling "
                      << C->getName() << ": " << (A.G ? "built" : "failed")
                      << "\n");
    if (A.G) {
      drop(Best, FAM);
      Best = A;
      Stopped = std::move(Fewer);
    } else {
      Why[C] = Errors.empty() ? std::string("its derivative cannot be built")
                              : Errors.errors().front().Text;
    }
    Errors.discard();
  }
  // A dispatch that could only stop is an error where it is.
  for (const DispatchedCall &D : Best.PP.Dispatched)
    if (all_of(D.Candidates,
               [&](Function *C) { return Stopped.count(C) != 0; })) {
      drop(Best, FAM);
      return nullptr;
    }
  First.discard();
  forgetFailuresSince(Mark);
  OptimizationRemarkEmitter ORE(R.Fn);
  for (DispatchedCall &D : Best.PP.Dispatched)
    for (DispatchedCall::Stop &S : D.Stops) {
      ++NumStoppedCandidates;
      const std::string &Reason = Why[S.Candidate];
      explainStop(S, Reason);
      ORE.emit([&]() {
        return OptimizationRemarkAnalysis("tapestry", "StoppedCandidate",
                                          DebugLoc(), &R.Fn->getEntryBlock())
               << "the derivative of '" << sourceName(*R.Fn) << "' calls '"
               << sourceName(*S.Candidate)
               << "' through a function pointer, and stops at run time if "
                  "the pointer holds it: "
               << Reason;
      });
    }
  if (Split)
    *Split = Best.Split;
  return Best.G;
}

} // namespace tapestry
