//===- DerivativeCache.cpp ------------------------------------------------===//
#include "Driver/DerivativeCache.h"

#include "Analysis/ActivityAnalysis.h"
#include "Analysis/TapeAnalysis.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "Core/Diagnostics.h"
#include "Synthesis/ForwardModeSynthesizer.h"
#include "Synthesis/PrimalPreparation.h"
#include "Synthesis/ReverseModeSynthesizer.h"
#include "llvm/IR/Function.h"
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
  Function *G = synthesize(R);
  Derivatives[R] = G;
  return G;
}

Function *DerivativeCache::synthesize(const DiffRequest &R) {
  PreparedPrimal &PP = Prepared[R.Fn];
  if (!PP.Fn)
    PP = preparePrimal(*R.Fn, FAM, Rules);
  Function &P = *PP.Fn;
  ActivityInfo AI = computeActivity(P, R, &Rules);
  TapePlan Tape =
      planTape(P, FAM.getResult<AAManager>(P),
               FAM.getResult<DominatorTreeAnalysis>(P),
               FAM.getResult<LoopAnalysis>(P));
  SynthesisInput In{R,
                    P,
                    Rules,
                    AI,
                    Tape,
                    PP.LoopIVs,
                    FAM.getResult<DominatorTreeAnalysis>(P),
                    FAM.getResult<LoopAnalysis>(P),
                    FAM.getResult<ScalarEvolutionAnalysis>(P)};
  Function *G = R.Mode == DiffMode::Forward ? ForwardModeSynthesizer(In).run()
                                            : ReverseModeSynthesizer(In).run();
  if (!G)
    return nullptr;
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
  simplifySynthesized(*G, FAM);
  return G;
}

} // namespace tapestry
