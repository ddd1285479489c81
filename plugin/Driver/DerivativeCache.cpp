//===- DerivativeCache.cpp ------------------------------------------------===//
#include "Driver/DerivativeCache.h"

#include "Analysis/ActivityAnalysis.h"
#include "Analysis/TapeAnalysis.h"
#include "Core/Diagnostics.h"
#include "Synthesis/DerivativeSignature.h"
#include "Synthesis/ForwardModeSynthesizer.h"
#include "Synthesis/PrimalPreparation.h"
#include "Synthesis/ReverseModeSynthesizer.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tapestry {

DerivativeCache::~DerivativeCache() {
  for (auto &[F, P] : Prepared) {
    FAM.clear(*P.Fn, P.Fn->getName());
    P.Fn->eraseFromParent();
  }
}

Function *DerivativeCache::get(const DiffRequest &R) {
  auto It = Derivatives.find(R);
  if (It != Derivatives.end())
    return It->second;
  // A recursive function's derivative calls itself: while it is being
  // built, requests for it get a declaration that is replaced by the
  // finished function.
  DerivativeSignature Sig = computeSignature(R);
  Function *Stub = Function::Create(Sig.Type, GlobalValue::ExternalLinkage,
                                    R.Fn->getName() + ".tapestry.pending",
                                    R.Fn->getParent());
  Derivatives[R] = Stub;
  Function *G = synthesize(R);
  if (G)
    Stub->replaceAllUsesWith(G);
  else if (!Stub->use_empty())
    Stub->replaceAllUsesWith(PoisonValue::get(Stub->getType()));
  Stub->eraseFromParent();
  Derivatives[R] = G;
  return G;
}

Function *DerivativeCache::synthesize(const DiffRequest &R) {
  // Callee derivatives are built while this one is (recursion), which may
  // grow Prepared: work on a copy of the entry.
  if (!Prepared.count(R.Fn))
    Prepared[R.Fn] = preparePrimal(*R.Fn, FAM, Rules);
  PreparedPrimal PP = Prepared[R.Fn];
  Function &P = *PP.Fn;
  ActivityInfo AI = computeActivity(P, R, &Rules);
  TapePlan Tape = planTape(P, FAM.getResult<AAManager>(P),
                           FAM.getResult<DominatorTreeAnalysis>(P),
                           FAM.getResult<LoopAnalysis>(P));
  auto Callee = [this](const DiffRequest &CR) { return get(CR); };
  SynthesisInput In{R,
                    P,
                    Rules,
                    AI,
                    Tape,
                    PP.LoopIVs,
                    FAM.getResult<DominatorTreeAnalysis>(P),
                    FAM.getResult<LoopAnalysis>(P),
                    FAM.getResult<ScalarEvolutionAnalysis>(P),
                    Callee};
  Function *G = R.Mode == DiffMode::Forward ? ForwardModeSynthesizer(In).run()
                                            : ReverseModeSynthesizer(In).run();
  if (!G)
    return nullptr;
  // Calls the synthesizers made to functions with debug info need a
  // location inside a function with debug info.
  if (DISubprogram *SP = G->getSubprogram())
    for (Instruction &I : instructions(*G))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (!CB->getDebugLoc())
          if (Function *Callee = CB->getCalledFunction())
            if (Callee->getSubprogram())
              CB->setDebugLoc(DILocation::get(G->getContext(), 0, 0, SP));
  std::string Problems;
  raw_string_ostream OS(Problems);
  if (verifyFunction(*G, &OS)) {
    reportError(*R.Fn, nullptr,
                "internal error: the synthesised " + modeName(R.Mode) +
                    " derivative of '" + R.Fn->getName() +
                    "' is invalid IR; please report this with the input. " +
                    Problems);
    G->eraseFromParent();
    return nullptr;
  }
  simplifySynthesized(*G, FAM,
                      /*ScalarizeLoopLanes=*/R.Mode == DiffMode::Reverse &&
                          R.Width > 1);
  return G;
}

} // namespace tapestry
