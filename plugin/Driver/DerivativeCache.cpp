//===- DerivativeCache.cpp - One synthesised function per request ---------===//
//
// The memo tables and the pipeline of one request (synthesize): prepare,
// analyse types and activity, plan the tape, synthesise, split, verify,
// print when -enzyme-print asks. Statistics count requests, cache hits and
// prepared primals.
//
//===----------------------------------------------------------------------===//
#include "Driver/DerivativeCache.h"

#include "Analysis/ActivityAnalysis.h"
#include "Analysis/TapeAnalysis.h"
#include "Analysis/TypeAnalysis.h"
#include "Core/AllocationFunctions.h"
#include "Core/Diagnostics.h"
#include "Core/EnzymeOptions.h"
#include "Split/CalleeSplits.h"
#include "Synthesis/DerivativeSignature.h"
#include "Synthesis/ForwardModeSynthesizer.h"
#include "Synthesis/PrimalPreparation.h"
#include "Synthesis/ReverseModeSynthesizer.h"
#include "Synthesis/UnneededPrimalWrites.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "tapestry"

using namespace llvm;

STATISTIC(NumDerivativeRequests, "Derivatives asked of the cache");
STATISTIC(NumDerivativesReused, "Derivatives served from the cache");
STATISTIC(NumPrimalsPrepared, "Functions prepared for differentiation");

namespace tapestry {

DerivativeCache::~DerivativeCache() {
  for (auto &[F, P] : Prepared)
    PreparedStopping.push_back(P.Fn);
  Module *M = nullptr;
  for (Function *P : PreparedStopping) {
    M = P->getParent();
    FAM.clear(*P, P->getName());
    P->eraseFromParent();
  }
  if (!M)
    return;
  // The messages of what was built and dropped (stopped candidates tried,
  // derivatives that failed) with them.
  for (GlobalVariable &GV : make_early_inc_range(M->globals()))
    if (GV.hasPrivateLinkage() && GV.use_empty() &&
        (GV.getName().starts_with("tapestry.stopped.candidate") ||
         GV.getName().starts_with("tapestry.unknown.callee")))
      GV.eraseFromParent();
}

Function *DerivativeCache::get(const DiffRequest &R) {
  ++NumDerivativeRequests;
  auto It = Derivatives.find(R);
  if (It != Derivatives.end()) {
    ++NumDerivativesReused;
    return It->second;
  }
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
  if (!G)
    Failures.push_back({Table::Derivatives, R});
  return G;
}

const SplitDerivative *DerivativeCache::getSplit(const DiffRequest &R) {
  assert(R.Split && R.Mode == DiffMode::Reverse && "not a split request");
  auto It = Splits.find(R);
  if (It != Splits.end())
    return It->second ? &*It->second : nullptr;
  SplitDerivative S;
  SplitsBuilding.push_back(R);
  synthesize(R, &S);
  SplitsBuilding.pop_back();
  std::optional<SplitDerivative> &Entry = Splits[R];
  if (S.Augmented)
    Entry = S;
  else
    Failures.push_back({Table::Splits, R});
  return Entry ? &*Entry : nullptr;
}

CalleeSplit DerivativeCache::getCalleeSplit(const DiffRequest &CR) {
  DiffRequest R = CR;
  R.Split = true;
  R.ReturnPrimal = false;
  auto It = CalleeSplits.find(R);
  if (It != CalleeSplits.end()) {
    CalleeSplit CS = It->second;
    // A callee whose split is being built (recursion): a function calling
    // itself assumes its reverse replayable (CalleeSplit::NotReplayable);
    // through other functions, whether it is stays unknown.
    if (CS.KeptAugmented && CS.KeptAugmented->isDeclaration() &&
        (SplitsBuilding.empty() || !(SplitsBuilding.back() == R)))
      CS.NotReplayable = "which calls it back through other functions "
                         "(mutual recursion) and may consume its own tape";
    return CS;
  }
  // The wrappers exist (empty) before the callee is differentiated, so that
  // a recursive callee's derivative can call them.
  CalleeSplit CS = declareCalleeSplit(R);
  CalleeSplits[R] = CS;
  if (const SplitDerivative *S = getSplit(R)) {
    defineCalleeSplit(CS, *S);
  } else {
    discardCalleeSplit(CS);
    Failures.push_back({Table::CalleeSplits, R});
  }
  CalleeSplits[R] = CS;
  return CS;
}

bool DerivativeCache::verify(const DiffRequest &R, Function *&F) {
  std::string Problems;
  raw_string_ostream OS(Problems);
  if (!verifyFunction(*F, &OS))
    return true;
  reportError(*R.Fn, nullptr,
              "internal error: the synthesised " + modeName(R.Mode) +
                  " derivative of '" + R.Fn->getName() +
                  "' is invalid IR; please report this with the input. " +
                  Problems);
  F->eraseFromParent();
  F = nullptr;
  return false;
}

/// Calls the synthesizers made to functions with debug info need a location
/// inside a function with debug info.
static void locateCalls(Function &G) {
  DISubprogram *SP = G.getSubprogram();
  if (!SP)
    return;
  for (Instruction &I : instructions(G))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (!CB->getDebugLoc())
        if (Function *Callee = CB->getCalledFunction())
          // Also the wrappers of callee splits, into which those with debug
          // info are inlined.
          if (Callee->getSubprogram() ||
              Callee->getName().contains(".tapestry."))
            CB->setDebugLoc(DILocation::get(G.getContext(), 0, 0, SP));
}

/// -enzyme-print: each derivative as it is finished.
static void printDerivative(const Function &G) {
  if (enzymePrintDerivatives())
    errs() << G;
}

ArrayRef<VariableActivity>
DerivativeCache::variableActivities(const DiffRequest &R) const {
  auto It = Variables.find(R);
  if (It == Variables.end())
    return {};
  return It->second;
}

/// True if \p F reads its variable arguments (va_start): its derivative
/// would need va_arg's, which Tapestry does not build.
static bool readsVariadicArguments(const Function &F) {
  if (!F.isVarArg())
    return false;
  for (const Instruction &I : instructions(F))
    if (const auto *II = dyn_cast<IntrinsicInst>(&I))
      if (II->getIntrinsicID() == Intrinsic::vastart)
        return true;
  return false;
}

Function *DerivativeCache::synthesize(const DiffRequest &R,
                                      SplitDerivative *Split) {
  if (readsVariadicArguments(*R.Fn)) {
    // A call passing it active values has said so where it is (Synthesis/
    // SupportedInstructions.cpp), as has a request naming it (Passes/
    // RequestDecoder.cpp); anything else reaching here says it too.
    if (!anyErrorReportedIn(*R.Fn->getParent()))
      reportError(*R.Fn, nullptr,
                  "'" + sourceName(*R.Fn) +
                      "' is variadic; variadic functions cannot be "
                      "differentiated");
    return nullptr;
  }
  // Callee derivatives are built while this one is (recursion), which may
  // grow Prepared: work on a copy of the entry.
  if (!Prepared.count(R.Fn))
    Prepared[R.Fn] = prepare(*R.Fn);
  PreparedPrimal PP = Prepared[R.Fn];
  if (!PP.Dispatched.empty())
    return synthesizeStoppingCandidates(R, PP, Split);
  return synthesizeFrom(R, PP, Split);
}

PreparedPrimal DerivativeCache::prepare(Function &F,
                                        const StoppedCandidates *Stopped) {
  ++NumPrimalsPrepared;
  LLVM_DEBUG(dbgs() << "tapestry: prepare " << F.getName()
                    << (Stopped ? " with stopped candidates" : "") << "\n");
  PreparedPrimal PP = preparePrimal(F, FAM, Rules, Stopped);
  // A shadowed global's elements addressed by constant expressions get
  // instructions, which get shadows.
  if (PP.Fn) {
    SmallVector<Constant *, 8> Shadowed(Globals.globals());
    convertUsersOfConstantsToInstructions(Shadowed, PP.Fn);
    if (Stopped)
      PreparedStopping.push_back(PP.Fn);
  }
  return PP;
}

Function *DerivativeCache::synthesizeFrom(const DiffRequest &R,
                                          const PreparedPrimal &PP,
                                          SplitDerivative *Split) {
  Function &P = *PP.Fn;
  const GlobalShadows &Used = globalsFor(R);
  // A context's shadowed globals, or a nesting depth's, likewise.
  if (R.Context || R.GlobalDepth) {
    SmallVector<Constant *, 8> Shadowed(Used.globals());
    convertUsersOfConstantsToInstructions(Shadowed, &P);
  }
  ActivityInfo AI = computeActivity(P, R, &Rules, &Used);
  // -enzyme-print-activity, -enzyme-print-type: what the derivative is
  // built from.
  if (enzymePrintActivity())
    printActivity(errs(), P, AI);
  if (KeepVariables)
    Variables[R] = tapestry::variableActivities(P, AI);
  if (enzymePrintTypes())
    computeTypes(P).print(errs(), P);
  // Writes the derivative leaves out change nothing a reload reads.
  TapePlan Tape = planTape(
      P, FAM.getResult<AAManager>(P), FAM.getResult<DominatorTreeAnalysis>(P),
      FAM.getResult<LoopAnalysis>(P), findUnneededPrimalWrites(P, R));
  if (R.Split)
    restrictToLocalMemory(Tape);
  auto Callee = [this](const DiffRequest &CR) { return get(CR); };
  auto CalleeSplitFor = [this](const DiffRequest &CR) {
    return getCalleeSplit(CR);
  };
  SynthesisInput In{R,
                    P,
                    Rules,
                    AI,
                    Tape,
                    PP.LoopIVs,
                    FAM.getResult<DominatorTreeAnalysis>(P),
                    FAM.getResult<LoopAnalysis>(P),
                    FAM.getResult<ScalarEvolutionAnalysis>(P),
                    Callee,
                    CalleeSplitFor,
                    &Used};
  if (R.Mode == DiffMode::Forward) {
    Function *G = ForwardModeSynthesizer(In).run();
    if (!G)
      return nullptr;
    locateCalls(*G);
    if (!verify(R, G))
      return nullptr;
    simplifySynthesized(*G, FAM);
    printDerivative(*G);
    return G;
  }
  ReverseModeSynthesizer RMS(In);
  Function *G = RMS.run();
  if (!G)
    return nullptr;
  locateCalls(*G);
  if (!verify(R, G))
    return nullptr;
  if (!Split) {
    simplifySynthesized(*G, FAM, /*ScalarizeLoopLanes=*/R.Width > 1);
    printDerivative(*G);
    return G;
  }
  bool Ok = splitAtBoundary(*G, R, computeSignature(R), RMS.boundary(), *Split);
  FAM.clear(*G, G->getName());
  G->eraseFromParent();
  if (!Ok)
    return nullptr;
  for (Function **F : {&Split->Augmented, &Split->Reverse, &Split->Release})
    if (!verify(R, *F)) {
      for (Function **Other :
           {&Split->Augmented, &Split->Reverse, &Split->Release})
        if (*Other)
          (*Other)->eraseFromParent();
      *Split = SplitDerivative();
      return nullptr;
    }
  simplifySynthesized(*Split->Augmented, FAM);
  simplifySynthesized(*Split->Reverse, FAM);
  printDerivative(*Split->Augmented);
  printDerivative(*Split->Reverse);
  return Split->Reverse;
}

} // namespace tapestry
