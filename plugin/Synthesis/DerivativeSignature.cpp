//===- DerivativeSignature.cpp - Parameters and results of derivatives ----===//
//
// Implements DerivativeSignature.h: computeSignature lays out a request's
// derivative parameters and results (primals, shadows or tangents, the seed,
// the returned primal and adjoints, batched types), createDerivativeFunction
// creates the function with that layout and clones the prepared primal's body
// into it, and emitResultReturn returns the results in that order. The
// synthesizers then add the derivative code; the call-site rewriter
// (Passes/CallSiteRewriter) relies on the same layout.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/DerivativeSignature.h"

#include "Core/Batch.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace tapestry {

DerivativeSignature computeSignature(const DiffRequest &R) {
  DerivativeSignature Sig;
  FunctionType *FT = R.Fn->getFunctionType();
  SmallVector<Type *, 16> Params;
  for (unsigned I = 0; I < FT->getNumParams(); ++I) {
    Type *T = FT->getParamType(I);
    Sig.PrimalArg.push_back(Params.size());
    Params.push_back(T);
    bool HasShadow =
        R.Args[I] == Activity::Dup || R.Args[I] == Activity::DupNoNeed;
    Sig.ShadowArg.push_back(HasShadow ? (int)Params.size() : -1);
    if (HasShadow)
      Params.push_back(batchType(T, R.Width));
  }
  Type *RetTy = FT->getReturnType();
  if (R.Mode == DiffMode::Reverse && R.ReturnActive && !R.returnsShadow()) {
    Sig.SeedArg = Params.size();
    Params.push_back(batchType(RetTy, R.Width));
  }
  if (R.ReturnPrimal && !RetTy->isVoidTy())
    Sig.Results.push_back(RetTy);
  if (R.Mode == DiffMode::Reverse) {
    for (unsigned I = 0; I < FT->getNumParams(); ++I)
      if (R.Args[I] == Activity::Active)
        Sig.Results.push_back(batchResultType(FT->getParamType(I), R.Width));
  } else if (R.ReturnActive) {
    Sig.Results.push_back(batchResultType(RetTy, R.Width));
  }
  LLVMContext &Ctx = FT->getContext();
  Type *ResTy = Type::getVoidTy(Ctx);
  if (Sig.Results.size() == 1)
    ResTy = Sig.Results.front();
  else if (Sig.Results.size() > 1)
    ResTy = StructType::get(Ctx, Sig.Results);
  Sig.Type = FunctionType::get(ResTy, Params, false);
  return Sig;
}

Function *createDerivativeFunction(const DiffRequest &R,
                                   const DerivativeSignature &Sig,
                                   Function &Primal, ValueToValueMapTy &VMap) {
  Module &M = *Primal.getParent();
  std::string Name = (R.Fn->getName() + ".tapestry." + R.suffix()).str();
  Function *G =
      Function::Create(Sig.Type, GlobalValue::InternalLinkage, Name, M);
  for (unsigned I = 0; I < Primal.arg_size(); ++I) {
    Argument *A = G->getArg(Sig.PrimalArg[I]);
    A->setName(Primal.getArg(I)->getName());
    VMap[Primal.getArg(I)] = A;
    if (Sig.ShadowArg[I] >= 0)
      G->getArg(Sig.ShadowArg[I])->setName(Primal.getArg(I)->getName() + "'");
  }
  if (Sig.SeedArg >= 0)
    G->getArg(Sig.SeedArg)->setName("seed");
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(G, &Primal, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  // The primal's attributes describe a different signature; keep none but
  // those that hold for any function built from its body.
  G->setAttributes(AttributeList());
  // CloneFunctionInto copied the primal's calling convention (fastcc in
  // optimised IR); every call to G is built by Tapestry with the C one.
  G->setCallingConv(CallingConv::C);
  if (Primal.hasFnAttribute(Attribute::NoUnwind))
    G->addFnAttr(Attribute::NoUnwind);
  // The instruction set the body was compiled for: vector code passes
  // vectors in the registers it implies (a call to libmvec's _ZGVdN4v_sin
  // takes its <4 x double> in one AVX register).
  for (StringRef Kind :
       {"target-cpu", "target-features", "tune-cpu", "min-legal-vector-width",
        "prefer-vector-width", "denormal-fp-math", "denormal-fp-math-f32"})
    if (Primal.hasFnAttribute(Kind))
      G->addFnAttr(Primal.getFnAttribute(Kind));
  G->setLinkage(GlobalValue::InternalLinkage);
  G->setName(Name);
  return G;
}

void emitResultReturn(IRBuilderBase &B, const DerivativeSignature &Sig,
                      ArrayRef<Value *> Results) {
  assert(Results.size() == Sig.Results.size() && "result count mismatch");
  if (Results.empty()) {
    B.CreateRetVoid();
    return;
  }
  if (Results.size() == 1) {
    B.CreateRet(Results.front());
    return;
  }
  Value *Agg = PoisonValue::get(Sig.Type->getReturnType());
  for (unsigned I = 0; I < Results.size(); ++I)
    Agg = B.CreateInsertValue(Agg, Results[I], I);
  B.CreateRet(Agg);
}

} // namespace tapestry
