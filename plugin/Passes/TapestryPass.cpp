//===- TapestryPass.cpp ---------------------------------------------------===//
#include "Passes/TapestryPass.h"

#include "Core/Batch.h"
#include "Core/CustomRules.h"
#include "Core/Diagnostics.h"
#include "Driver/DerivativeCache.h"
#include "Passes/RequestDecoder.h"
#include "Synthesis/DerivativeSignature.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BuildLibCalls.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace tapestry {

namespace {

/// Replaces one request call by a call to its derivative.
class CallSiteRewriter {
public:
  CallSiteRewriter(CallBase &CB, const DecodedCall &D, Function &G)
      : CB(CB), D(D), G(G), B(&CB) {}

  bool run();

private:
  bool deliverResults(Value *Result, ArrayRef<Type *> ResultTypes);

  CallBase &CB;
  const DecodedCall &D;
  Function &G;
  IRBuilder<> B;
};

} // namespace

bool CallSiteRewriter::run() {
  const DiffRequest &R = D.Request;
  DerivativeSignature Sig = computeSignature(R);
  SmallVector<Value *, 16> Args;
  for (unsigned I = 0; I < D.Primals.size(); ++I) {
    Args.push_back(D.Primals[I]);
    if (D.Shadows[I])
      Args.push_back(D.Shadows[I]);
  }
  if (Sig.SeedArg >= 0)
    // Batched reverse seeds every lane with 1.
    Args.push_back(
        ConstantFP::get(batchType(R.Fn->getReturnType(), R.Width), 1.0));
  CallInst *Call = B.CreateCall(&G, Args);
  Call->setDebugLoc(CB.getDebugLoc());
  if (!deliverResults(Call, Sig.Results))
    return false;
  // A request reached through an invoke (C++ with cleanups) continues on
  // its normal path: the derivative's own failures do not unwind there.
  if (auto *II = dyn_cast<InvokeInst>(&CB)) {
    II->getUnwindDest()->removePredecessor(II->getParent());
    BranchInst::Create(II->getNormalDest(), II);
  }
  CB.eraseFromParent();
  return true;
}

/// The scalars a type is made of, in memory order: the shape a C struct of
/// results must have whatever IR type the ABI gives it.
static void flattenScalars(Type *T, SmallVectorImpl<Type *> &Out) {
  if (auto *ST = dyn_cast<StructType>(T)) {
    for (Type *E : ST->elements())
      flattenScalars(E, Out);
  } else if (auto *AT = dyn_cast<ArrayType>(T)) {
    for (uint64_t I = 0; I < AT->getNumElements(); ++I)
      flattenScalars(AT->getElementType(), Out);
  } else if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      Out.push_back(VT->getElementType());
  } else {
    Out.push_back(T);
  }
}

/// True if a value of type \p From can be handed over as \p To through
/// memory: the same scalars in the same order.
static bool sameScalars(Type *From, Type *To) {
  SmallVector<Type *, 8> A, B;
  flattenScalars(From, A);
  flattenScalars(To, B);
  return A == B;
}

/// Hands the derivative's results to the request's caller in the shape the
/// user declared: bare, through sret memory, or reinterpreted through memory
/// when the C ABI coerced the declared struct (e.g. {float, float} is
/// returned as <2 x float>). A declared type that does not hold exactly the
/// results is an error.
bool CallSiteRewriter::deliverResults(Value *Result,
                                      ArrayRef<Type *> ResultTypes) {
  Type *Declared = D.SRet ? CB.getParamStructRetType(0) : CB.getType();
  const DataLayout &DL = CB.getModule()->getDataLayout();
  StringRef Entry = entryPointName(CB);
  auto Mismatch = [&]() {
    std::string Types;
    for (Type *T : ResultTypes)
      Types += (Types.empty() ? "" : ", ") + describe(T);
    return reportError(*CB.getFunction(), &CB,
                       "the call to " + Entry + " is declared to return " +
                           describe(Declared) + ", which does not match its " +
                           Twine(ResultTypes.size()) + " result(s) (" + Types +
                           "); declare it to return " +
                           (ResultTypes.size() == 1
                                ? "that type"
                                : "a struct with these members in this "
                                  "order"));
  };
  if (!D.SRet && (Declared->isVoidTy() || CB.use_empty()))
    return true; // The caller ignores the results.
  if (ResultTypes.empty()) {
    if (!D.SRet && !CB.use_empty())
      return reportError(*CB.getFunction(), &CB,
                         "the call to " + Entry +
                             " uses a result, but this request returns "
                             "nothing");
    return true;
  }
  Type *Actual = Result->getType();
  if (D.SRet) {
    if (!sameScalars(Actual, Declared))
      return Mismatch();
    B.CreateStore(Result, D.SRet);
    return true;
  }
  Value *V = nullptr;
  if (Actual == Declared) {
    V = Result;
  } else if (ResultTypes.size() == 1 && Actual->isFloatingPointTy() &&
             Declared->isFloatingPointTy()) {
    V = B.CreateFPCast(Result, Declared);
  } else if (sameScalars(Actual, Declared)) {
    // Same scalars, different IR shape: go through memory, as the ABI does.
    uint64_t Size = std::max(DL.getTypeAllocSize(Actual).getFixedValue(),
                             DL.getTypeAllocSize(Declared).getFixedValue());
    IRBuilder<> EB(&CB.getFunction()->getEntryBlock(),
                   CB.getFunction()->getEntryBlock().begin());
    AllocaInst *Tmp = EB.CreateAlloca(ArrayType::get(EB.getInt8Ty(), Size),
                                      nullptr, "tapestry.result");
    Tmp->setAlignment(
        std::max(DL.getPrefTypeAlign(Actual), DL.getPrefTypeAlign(Declared)));
    B.CreateStore(Result, Tmp);
    V = B.CreateLoad(Declared, Tmp);
  } else {
    return Mismatch();
  }
  CB.replaceAllUsesWith(V);
  return true;
}

/// Removes entry-point declarations and marker globals that no longer have
/// uses, and the loads of markers left dead by rewriting.
static void eraseDeadApi(Module &M) {
  SmallVector<GlobalVariable *, 8> Markers;
  for (GlobalVariable &GV : M.globals())
    if (GV.getName().starts_with("enzyme_") && GV.isDeclaration())
      Markers.push_back(&GV);
  for (GlobalVariable *GV : Markers) {
    SmallVector<User *, 8> Users(GV->users());
    for (User *U : Users)
      if (auto *LI = dyn_cast<LoadInst>(U))
        if (LI->use_empty() && !LI->isVolatile())
          LI->eraseFromParent();
    if (GV->use_empty())
      GV->eraseFromParent();
  }
  SmallVector<Function *, 8> Entries;
  for (Function &F : M)
    if (F.isDeclaration() &&
        classifyEntryPoint(F.getName()) != EntryPoint::None)
      Entries.push_back(&F);
  for (Function *F : Entries)
    if (F->use_empty())
      F->eraseFromParent();
}

/// Functions with bodies reachable from \p F through direct calls, F
/// included.
static SmallPtrSet<Function *, 16> reachableFunctions(Function *F) {
  SmallPtrSet<Function *, 16> Seen{F};
  SmallVector<Function *, 16> Work{F};
  while (!Work.empty()) {
    Function *Cur = Work.pop_back_val();
    for (BasicBlock &BB : *Cur)
      for (Instruction &I : BB)
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (Function *Callee = CB->getCalledFunction())
            if (!Callee->isDeclaration() && Seen.insert(Callee).second)
              Work.push_back(Callee);
  }
  return Seen;
}

namespace {
struct PendingRequest {
  CallBase *CB;
  EntryPoint Kind;
};
} // namespace

static void resolveRequest(PendingRequest &Req, DerivativeCache &Cache) {
  CallBase *CB = Req.CB;
  if (Req.Kind == EntryPoint::Unsupported) {
    reportError(*CB->getFunction(), CB,
                entryPointName(*CB) +
                    " is not supported yet; use __enzyme_autodiff or "
                    "__enzyme_fwddiff");
    return;
  }
  DiffMode Mode =
      Req.Kind == EntryPoint::Autodiff ? DiffMode::Reverse : DiffMode::Forward;
  std::optional<DecodedCall> D = decodeRequest(*CB, Mode);
  if (!D)
    return;
  if (Function *G = Cache.get(D->Request))
    CallSiteRewriter(*CB, *D, *G).run();
}

/// C++ wrappers (such as enzyme::autodiff) receive the function to
/// differentiate as a parameter; inlining the always-inline ones that make
/// requests into their callers turns that parameter back into the function.
static void inlineRequestWrappers(Module &M) {
  for (unsigned Round = 0; Round < 8; ++Round) {
    SmallSetVector<Function *, 4> Wrappers;
    for (Function &F : M)
      if (F.isDeclaration() &&
          classifyEntryPoint(F.getName()) != EntryPoint::None)
        for (User *U : F.users())
          if (auto *CB = dyn_cast<CallBase>(U))
            if (CB->getFunction()->hasFnAttribute(Attribute::AlwaysInline))
              Wrappers.insert(CB->getFunction());
    SmallVector<CallBase *, 8> Sites;
    for (Function *W : Wrappers)
      for (User *U : W->users())
        if (auto *CB = dyn_cast<CallBase>(U))
          if (CB->getCalledOperand() == W && CB->getFunction() != W)
            Sites.push_back(CB);
    if (Sites.empty())
      return;
    for (CallBase *CB : Sites) {
      InlineFunctionInfo IFI;
      InlineFunction(*CB, IFI);
    }
    // A wrapper inlined everywhere is gone: its own request, on a function
    // parameter, is not one to resolve.
    for (Function *W : Wrappers)
      if (W->use_empty() && W->isDiscardableIfUnused())
        W->eraseFromParent();
  }
}

PreservedAnalyses TapestryPass::run(Module &M, ModuleAnalysisManager &MAM) {
  inlineRequestWrappers(M);
  SmallVector<PendingRequest, 8> Pending;
  for (Function &F : M) {
    EntryPoint E = classifyEntryPoint(F.getName());
    if (E == EntryPoint::None || !F.isDeclaration())
      continue;
    for (User *U : F.users())
      if (auto *CB = dyn_cast<CallBase>(U))
        if (CB->getCalledOperand() == &F)
          Pending.push_back({CB, E});
  }
  if (Pending.empty())
    return PreservedAnalyses::all();

  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  // What the C library's functions may touch (free captures nothing, exp
  // writes only errno) lets alias analysis prove more memory unchanged, so
  // the reverse sweep reloads it instead of caching it. -O2 infers the same
  // attributes later; doing it first helps every -O level.
  for (Function &F : M)
    if (F.isDeclaration() && !F.isIntrinsic())
      inferNonMandatoryLibFuncAttrs(F, FAM.getResult<TargetLibraryAnalysis>(F));
  CustomRules Rules = CustomRules::collect(M);
  {
    DerivativeCache Cache(FAM, Rules);
    // A request inside code that another request differentiates (a
    // Hessian-vector product, say) is resolved first, whatever the source
    // order.
    while (!Pending.empty()) {
      bool Progress = false;
      for (unsigned I = 0; I < Pending.size();) {
        PendingRequest Req = Pending[I];
        Function *Target = requestTarget(*Req.CB);
        if (Target && !Target->isDeclaration()) {
          SmallPtrSet<Function *, 16> Reach = reachableFunctions(Target);
          if (Reach.count(Req.CB->getFunction())) {
            reportError(*Req.CB->getFunction(), Req.CB,
                        "this request differentiates '" + Target->getName() +
                            "', which itself contains the request; a "
                            "function cannot depend on its own derivative");
            Pending.erase(Pending.begin() + I);
            Progress = true;
            continue;
          }
          bool Waits = any_of(Pending, [&](const PendingRequest &Other) {
            return Other.CB != Req.CB && Reach.count(Other.CB->getFunction());
          });
          if (Waits) {
            ++I;
            continue;
          }
        }
        resolveRequest(Req, Cache);
        Pending.erase(Pending.begin() + I);
        Progress = true;
      }
      if (!Progress) {
        for (PendingRequest &Req : Pending)
          reportError(*Req.CB->getFunction(), Req.CB,
                      "this request and another one each differentiate code "
                      "that contains the other; they cannot be ordered");
        break;
      }
    }
  }
  eraseDeadApi(M);
  return PreservedAnalyses::none();
}

} // namespace tapestry
