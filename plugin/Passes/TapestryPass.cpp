//===- TapestryPass.cpp ---------------------------------------------------===//
#include "Passes/TapestryPass.h"

#include "Core/Diagnostics.h"
#include "Driver/DerivativeCache.h"
#include "Passes/RequestDecoder.h"
#include "Synthesis/DerivativeSignature.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

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
    Args.push_back(ConstantFP::get(R.Fn->getReturnType(), 1.0));
  CallInst *Call = B.CreateCall(&G, Args);
  Call->setDebugLoc(CB.getDebugLoc());
  if (!deliverResults(Call, Sig.Results))
    return false;
  CB.eraseFromParent();
  return true;
}

/// Hands the derivative's results to the request's caller in the shape the
/// user declared: bare, through sret memory, or reinterpreted through memory
/// when the C ABI coerced the declared struct (e.g. {float, float} is
/// returned as <2 x float>).
bool CallSiteRewriter::deliverResults(Value *Result,
                                      ArrayRef<Type *> ResultTypes) {
  Type *Declared = CB.getType();
  const DataLayout &DL = CB.getModule()->getDataLayout();
  if (D.SRet) {
    B.CreateStore(Result, D.SRet);
    return true;
  }
  if (Declared->isVoidTy() || CB.use_empty()) {
    if (!CB.use_empty())
      CB.replaceAllUsesWith(PoisonValue::get(Declared));
    return true;
  }
  if (ResultTypes.empty())
    return reportError(*CB.getFunction(), &CB,
                       "the call to " + CB.getCalledFunction()->getName() +
                           " uses a result, but this request returns nothing");
  Type *Actual = Result->getType();
  Value *V = nullptr;
  if (Actual == Declared) {
    V = Result;
  } else if (ResultTypes.size() == 1 && Actual->isFloatingPointTy() &&
             Declared->isFloatingPointTy()) {
    V = B.CreateFPCast(Result, Declared);
  } else if (!(Declared->isFloatingPointTy() && ResultTypes.size() > 1) &&
             alignTo(DL.getTypeAllocSize(Actual), 8) ==
                 alignTo(DL.getTypeAllocSize(Declared), 8)) {
    // Same bytes, different IR shape: go through memory, as the ABI does.
    uint64_t Size = std::max(DL.getTypeAllocSize(Actual).getFixedValue(),
                             DL.getTypeAllocSize(Declared).getFixedValue());
    IRBuilder<> EB(&CB.getFunction()->getEntryBlock(),
                   CB.getFunction()->getEntryBlock().begin());
    AllocaInst *Tmp = EB.CreateAlloca(
        ArrayType::get(EB.getInt8Ty(), Size), nullptr, "tapestry.result");
    Tmp->setAlignment(std::max(DL.getPrefTypeAlign(Actual),
                               DL.getPrefTypeAlign(Declared)));
    B.CreateStore(Result, Tmp);
    V = B.CreateLoad(Declared, Tmp);
  } else {
    std::string Types;
    for (Type *T : ResultTypes)
      Types += (Types.empty() ? "" : ", ") + describe(T);
    return reportError(
        *CB.getFunction(), &CB,
        "the call to " + CB.getCalledFunction()->getName() +
            " is declared to return " + describe(Declared) +
            ", which does not hold its " + Twine(ResultTypes.size()) +
            " result(s) (" + Types +
            "); declare it to return a struct with these members in this "
            "order");
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
    if (F.isDeclaration() && classifyEntryPoint(F.getName()) != EntryPoint::None)
      Entries.push_back(&F);
  for (Function *F : Entries)
    if (F->use_empty())
      F->eraseFromParent();
}

PreservedAnalyses TapestryPass::run(Module &M, ModuleAnalysisManager &MAM) {
  SmallVector<std::pair<CallBase *, EntryPoint>, 8> Requests;
  for (Function &F : M) {
    EntryPoint E = classifyEntryPoint(F.getName());
    if (E == EntryPoint::None || !F.isDeclaration())
      continue;
    for (User *U : F.users())
      if (auto *CB = dyn_cast<CallBase>(U))
        if (CB->getCalledOperand() == &F)
          Requests.push_back({CB, E});
  }
  if (Requests.empty())
    return PreservedAnalyses::all();

  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  {
    DerivativeCache Cache(FAM);
    for (auto [CB, E] : Requests) {
      if (E == EntryPoint::Unsupported) {
        reportError(*CB->getFunction(), CB,
                    CB->getCalledFunction()->getName() +
                        " is not supported yet; use __enzyme_autodiff or "
                        "__enzyme_fwddiff");
        continue;
      }
      DiffMode Mode =
          E == EntryPoint::Autodiff ? DiffMode::Reverse : DiffMode::Forward;
      std::optional<DecodedCall> D = decodeRequest(*CB, Mode);
      if (!D)
        continue;
      Function *G = Cache.get(D->Request);
      if (!G)
        continue;
      CallSiteRewriter(*CB, *D, *G).run();
    }
  }
  eraseDeadApi(M);
  return PreservedAnalyses::none();
}

} // namespace tapestry
