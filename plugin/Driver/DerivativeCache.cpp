//===- DerivativeCache.cpp ------------------------------------------------===//
#include "Driver/DerivativeCache.h"

#include "Analysis/ActivityAnalysis.h"
#include "Analysis/ParamAccess.h"
#include "Analysis/TapeAnalysis.h"
#include "Analysis/TypeAnalysis.h"
#include "Core/AllocationFunctions.h"
#include "Core/Diagnostics.h"
#include "Core/EnzymeOptions.h"
#include "Synthesis/DerivativeSignature.h"
#include "Synthesis/ForwardModeSynthesizer.h"
#include "Synthesis/PrimalPreparation.h"
#include "Synthesis/ReverseModeSynthesizer.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
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
  for (auto &[F, P] : Prepared) {
    FAM.clear(*P.Fn, P.Fn->getName());
    P.Fn->eraseFromParent();
  }
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
  return Entry ? &*Entry : nullptr;
}

/// A callee's split as a split caller runs it (CalleeSplit::KeptAugmented):
/// made empty before the callee is differentiated (a recursive callee's
/// derivative calls them), filled by fillKeptCallee.
static void declareKeptCallee(CalleeSplit &CS, const std::string &Base) {
  Module &M = *CS.Augmented->getParent();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  FunctionType *AugTy = CS.Augmented->getFunctionType();
  SmallVector<Type *, 16> Params(AugTy->params());
  Params.push_back(Ptr);
  CS.KeptAugmented = Function::Create(
      FunctionType::get(AugTy->getReturnType(), Params, false),
      GlobalValue::InternalLinkage, Base + ".call.kept.fwd", M);
  CS.KeptAugmented->addParamAttr(Params.size() - 1, Attribute::NoCapture);
  CS.KeptReverse = Function::Create(CS.Reverse->getFunctionType(),
                                    GlobalValue::InternalLinkage,
                                    Base + ".call.kept.rev", M);
  CS.KeptRelease = Function::Create(
      FunctionType::get(Type::getVoidTy(C), {Ptr}, false),
      GlobalValue::InternalLinkage, Base + ".call.kept.release", M);
  CS.KeptRelease->addFnAttr(Attribute::NoUnwind);
}

/// The kept augmented forward puts each tape behind a 16-byte header (its
/// first word the next tape of the list) at the head of its call site's
/// list; the list's release walks it, releasing and freeing each tape.
/// Only heap addresses are stored: a derivative differentiated again (a
/// Hessian) follows them as it follows any linked list.
static void fillKeptCallee(CalleeSplit &CS, const SplitDerivative &S) {
  Module &M = *CS.Augmented->getParent();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  const uint64_t Header = 16;
  {
    Function *Rel = CS.KeptRelease;
    BasicBlock *Entry = BasicBlock::Create(C, "entry", Rel);
    BasicBlock *Loop = BasicBlock::Create(C, "tape", Rel);
    BasicBlock *Done = BasicBlock::Create(C, "done", Rel);
    IRBuilder<> B(Entry);
    Value *First = Rel->getArg(0);
    B.CreateCondBr(B.CreateIsNull(First), Done, Loop);
    B.SetInsertPoint(Loop);
    PHINode *Node = B.CreatePHI(Ptr, 2, "node");
    Node->addIncoming(First, Entry);
    Value *Next = B.CreateLoad(Ptr, Node, "next");
    B.CreateCall(S.Release,
                 {B.CreateConstGEP1_64(B.getInt8Ty(), Node, Header, "tape")});
    B.CreateCall(getFreeFn(M), {Node});
    Node->addIncoming(Next, Loop);
    B.CreateCondBr(B.CreateIsNull(Next), Done, Loop);
    B.SetInsertPoint(Done);
    B.CreateRetVoid();
  }
  Function *Aug = CS.KeptAugmented;
  unsigned NumParams = Aug->arg_size();
  IRBuilder<> B(BasicBlock::Create(C, "entry", Aug));
  Value *List = Aug->getArg(NumParams - 1);
  Value *Block =
      B.CreateCall(getMallocFn(M), {B.getInt64(S.TapeBytes + Header)}, "block");
  B.CreateStore(B.CreateLoad(Ptr, List), Block);
  B.CreateStore(Block, List);
  Value *Tape = B.CreateConstGEP1_64(B.getInt8Ty(), Block, Header, "tape");
  SmallVector<Value *, 16> Args;
  for (unsigned I = 0; I + 1 < NumParams; ++I)
    Args.push_back(Aug->getArg(I));
  Args.push_back(Tape);
  Value *Primal = B.CreateCall(S.Augmented, Args);
  Type *RetTy = Aug->getReturnType();
  if (RetTy == Ptr) {
    B.CreateRet(Tape);
  } else {
    Value *Pair = B.CreateInsertValue(PoisonValue::get(RetTy), Tape, 0);
    B.CreateRet(B.CreateInsertValue(Pair, Primal, 1));
  }
  // The callee's own reverse: the stub that stood for it while the callee
  // was built goes.
  CS.KeptReverse->replaceAllUsesWith(S.Reverse);
  CS.KeptReverse->eraseFromParent();
  CS.KeptReverse = S.Reverse;
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
  Module &M = *R.Fn->getParent();
  LLVMContext &C = M.getContext();
  DerivativeSignature Sig = computeSignature(R);
  Type *Ptr = PointerType::getUnqual(C);
  Type *RetTy = R.Fn->getReturnType();
  SmallVector<Type *, 16> AugParams;
  for (unsigned I = 0; I < Sig.Type->getNumParams(); ++I)
    if ((int)I != Sig.SeedArg)
      AugParams.push_back(Sig.Type->getParamType(I));
  Type *AugRet = RetTy->isVoidTy() ? Ptr : StructType::get(C, {Ptr, RetTy});
  std::string Base = (R.Fn->getName() + ".tapestry." + R.suffix()).str();
  CalleeSplit CS;
  CS.Augmented =
      Function::Create(FunctionType::get(AugRet, AugParams, false),
                       GlobalValue::InternalLinkage, Base + ".call.fwd", M);
  SmallVector<Type *, 16> RevParams(Sig.Type->params());
  RevParams.push_back(Ptr);
  CS.Reverse = Function::Create(
      FunctionType::get(Sig.Type->getReturnType(), RevParams, false),
      GlobalValue::InternalLinkage, Base + ".call.rev", M);
  declareKeptCallee(CS, Base);
  CalleeSplits[R] = CS;
  const SplitDerivative *S = getSplit(R);
  if (!S) {
    for (Function *F : {CS.Augmented, CS.Reverse, CS.KeptAugmented,
                        CS.KeptReverse, CS.KeptRelease}) {
      F->replaceAllUsesWith(PoisonValue::get(F->getType()));
      F->eraseFromParent();
    }
    CalleeSplits[R] = CalleeSplit();
    return CalleeSplit();
  }
  {
    IRBuilder<> B(BasicBlock::Create(C, "entry", CS.Augmented));
    Value *Tape =
        B.CreateCall(getMallocFn(M), {B.getInt64(S->TapeBytes)}, "tape");
    SmallVector<Value *, 16> Args;
    for (Argument &A : CS.Augmented->args())
      Args.push_back(&A);
    Args.push_back(Tape);
    Value *Primal = B.CreateCall(S->Augmented, Args);
    if (RetTy->isVoidTy()) {
      B.CreateRet(Tape);
    } else {
      Value *Pair = B.CreateInsertValue(PoisonValue::get(AugRet), Tape, 0);
      B.CreateRet(B.CreateInsertValue(Pair, Primal, 1));
    }
  }
  {
    IRBuilder<> B(BasicBlock::Create(C, "entry", CS.Reverse));
    SmallVector<Value *, 16> Args;
    for (Argument &A : CS.Reverse->args())
      Args.push_back(&A);
    Value *Tape = Args.back();
    Value *Adjoints = B.CreateCall(S->Reverse, Args);
    B.CreateCall(S->Release, {Tape});
    B.CreateCall(getFreeFn(M), {Tape});
    if (CS.Reverse->getReturnType()->isVoidTy())
      B.CreateRetVoid();
    else
      B.CreateRet(Adjoints);
  }
  fillKeptCallee(CS, *S);
  // What the halves do with the callers' addresses decides whether the
  // callers' tapes can be replayed (TapeSplitter's classifySlot): callees
  // first.
  for (Function *F :
       {S->Augmented, S->Reverse, S->Release, CS.Augmented, CS.Reverse,
        CS.KeptAugmented, CS.KeptReverse, CS.KeptRelease})
    if (F)
      inferParamAccess(*F);
  if (!S->Replayable)
    CS.NotReplayable =
        "whose own tape is not reusable (" + S->NotReplayableReason + ")";
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

Function *DerivativeCache::synthesize(const DiffRequest &R,
                                      SplitDerivative *Split) {
  // Callee derivatives are built while this one is (recursion), which may
  // grow Prepared: work on a copy of the entry.
  if (!Prepared.count(R.Fn)) {
    ++NumPrimalsPrepared;
    LLVM_DEBUG(dbgs() << "tapestry: prepare " << R.Fn->getName() << "\n");
    Prepared[R.Fn] = preparePrimal(*R.Fn, FAM, Rules);
    // A shadowed global's elements addressed by constant expressions get
    // instructions, which get shadows.
    if (Function *PF = Prepared[R.Fn].Fn) {
      SmallVector<Constant *, 8> Shadowed(Globals.globals());
      convertUsersOfConstantsToInstructions(Shadowed, PF);
    }
  }
  PreparedPrimal PP = Prepared[R.Fn];
  Function &P = *PP.Fn;
  const GlobalShadows &Used = globalsFor(R);
  // A context's shadowed globals, likewise.
  if (R.Context) {
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
  TapePlan Tape = planTape(P, FAM.getResult<AAManager>(P),
                           FAM.getResult<DominatorTreeAnalysis>(P),
                           FAM.getResult<LoopAnalysis>(P));
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
