//===- ForwardModeSynthesizer.cpp -----------------------------------------===//
#include "Synthesis/ForwardModeSynthesizer.h"

#include "Core/Diagnostics.h"
#include "Synthesis/CustomSignatures.h"
#include "Synthesis/DerivativeRules.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace tapestry {

Value *ForwardModeSynthesizer::tangent(Value *PV) {
  if (Value *T = Tangents.lookup(PV))
    return T;
  return Constant::getNullValue(PV->getType());
}

Function *ForwardModeSynthesizer::run() {
  createFunction();
  for (unsigned I = 0; I < P.arg_size(); ++I)
    if (Sig.ShadowArg[I] >= 0 && AI.isVaried(P.getArg(I)))
      Tangents[P.getArg(I)] = G->getArg(Sig.ShadowArg[I]);

  ReversePostOrderTraversal<Function *> RPO(&P);
  ReturnInst *Ret = nullptr;
  for (BasicBlock *PB : RPO)
    for (Instruction &PI : *PB) {
      checkSupported(PI);
      if (auto *RI = dyn_cast<ReturnInst>(&PI))
        Ret = RI;
      else
        visit(PI);
    }
  if (!Ret)
    fail(nullptr, "the function never returns");
  if (!Failed) {
    finishShadowPhis();
    finishTangentPhis();
    replaceReturn(*Ret);
  }
  if (Failed) {
    G->eraseFromParent();
    return nullptr;
  }
  return G;
}

void ForwardModeSynthesizer::visit(Instruction &PI) {
  if (PI.isTerminator())
    return;
  if (PI.getType()->isPointerTy()) {
    if (AI.hasShadow(&PI))
      createShadow(PI);
    return;
  }
  Instruction *GI = primal(&PI);
  IRBuilder<> B(GI->getNextNode());
  if (auto *SI = dyn_cast<StoreInst>(&PI))
    return visitStore(*SI, B);
  if (auto *MI = dyn_cast<MemIntrinsic>(&PI))
    return visitMemIntrinsic(*MI, B);
  if (auto *CB = dyn_cast<CallBase>(&PI)) {
    if (Function *Callee = CB->getCalledFunction()) {
      if (Function *Fwd = Rules.forwardDerivative(Callee))
        return visitCustomForward(*CB, *Fwd, B);
      if (!Callee->isDeclaration() && !Rules.isOpaque(Callee))
        return visitDefinedCall(*CB, B);
    }
    if (isDeallocationCall(*CB) && AI.hasShadow(CB->getArgOperand(0)))
      if (Value *S = shadowOf(CB->getArgOperand(0), &PI)) {
        // Same call on the shadow (sized delete keeps its size).
        SmallVector<Value *, 2> Args{S};
        for (unsigned I = 1; I < CB->arg_size(); ++I)
          Args.push_back(primal(CB->getArgOperand(I)));
        B.CreateCall(CB->getFunctionType(), CB->getCalledOperand(), Args);
      }
  }
  if (!AI.isActive(&PI))
    return;

  auto Lookup = [&](Value *V) { return primal(V); };
  Value *T = nullptr;
  const DerivativeRule *Rule = nullptr;
  if (auto *CB = dyn_cast<CallBase>(&PI))
    Rule = ruleFor(*CB);
  else
    Rule = findInstructionRule(PI.getOpcode());

  if (Rule) {
    SmallVector<Value *, 3> Ops(PI.operands().begin(),
                                PI.operands().begin() + Rule->NumOperands);
    PartialEmitter E(B, Ops, &PI, Lookup);
    for (unsigned I = 0; I < Rule->NumOperands; ++I) {
      if (!AI.isActive(Ops[I]))
        continue;
      Value *Partial = Rule->Partial(E, I);
      if (!Partial)
        continue;
      Value *Term = E.mul(Partial, tangent(Ops[I]));
      T = T ? E.add(T, Term) : Term;
    }
    if (!T)
      T = Constant::getNullValue(PI.getType());
  } else if (auto *Cast = dyn_cast<CastInst>(&PI)) {
    if (!isa<FPExtInst>(Cast) && !isa<FPTruncInst>(Cast))
      return fail(&PI, "cannot differentiate the conversion '" + describe(&PI) +
                           "'");
    T = B.CreateCast(Cast->getOpcode(), tangent(Cast->getOperand(0)),
                     PI.getType());
  } else if (auto *Sel = dyn_cast<SelectInst>(&PI)) {
    T = B.CreateSelect(primal(Sel->getCondition()),
                       tangent(Sel->getTrueValue()),
                       tangent(Sel->getFalseValue()));
  } else if (auto *Phi = dyn_cast<PHINode>(&PI)) {
    B.SetInsertPoint(GI->getParent(), GI->getParent()->getFirstNonPHIIt());
    T = B.CreatePHI(Phi->getType(), Phi->getNumIncomingValues());
  } else if (auto *LI = dyn_cast<LoadInst>(&PI)) {
    Value *S = shadowOf(LI->getPointerOperand(), &PI);
    if (!S)
      return;
    T = B.CreateAlignedLoad(LI->getType(), S, LI->getAlign());
  } else if (auto *EV = dyn_cast<ExtractValueInst>(&PI)) {
    T = B.CreateExtractValue(tangent(EV->getAggregateOperand()),
                             EV->getIndices());
  } else if (auto *IV = dyn_cast<InsertValueInst>(&PI)) {
    T = B.CreateInsertValue(tangent(IV->getAggregateOperand()),
                            tangent(IV->getInsertedValueOperand()),
                            IV->getIndices());
  } else if (auto *EE = dyn_cast<ExtractElementInst>(&PI)) {
    T = B.CreateExtractElement(tangent(EE->getVectorOperand()),
                               primal(EE->getIndexOperand()));
  } else if (auto *IE = dyn_cast<InsertElementInst>(&PI)) {
    T = B.CreateInsertElement(tangent(IE->getOperand(0)),
                              tangent(IE->getOperand(1)),
                              primal(IE->getOperand(2)));
  } else if (auto *SV = dyn_cast<ShuffleVectorInst>(&PI)) {
    T = B.CreateShuffleVector(tangent(SV->getOperand(0)),
                              tangent(SV->getOperand(1)), SV->getShuffleMask());
  } else if (auto *CB = dyn_cast<CallBase>(&PI)) {
    (void)CB; // Reported by checkSupported.
    return;
  } else {
    return fail(&PI,
                "cannot differentiate the instruction '" + describe(&PI) + "'");
  }
  T->setName(PI.getName() + "'");
  Tangents[&PI] = T;
}

void ForwardModeSynthesizer::visitStore(StoreInst &SI, IRBuilderBase &B) {
  Value *Val = SI.getValueOperand();
  Value *Ptr = SI.getPointerOperand();
  if (!AI.hasShadow(Ptr)) {
    // A derivative stored where it is read back but has no shadow would be
    // lost; one never read again is Enzyme's "constant output".
    if (losesDerivative(SI))
      reportLostStore(SI);
    return;
  }
  Value *SPtr = shadowOf(Ptr, &SI);
  if (!SPtr)
    return;
  Value *SVal = nullptr;
  if (Val->getType()->isPointerTy()) {
    if (!AI.hasShadow(Val))
      return;
    SVal = shadowOf(Val, &SI);
  } else if (AI.isActive(Val) ||
             Val->getType()->getScalarType()->isFloatingPointTy()) {
    SVal = tangent(Val);
  } else {
    return;
  }
  if (SVal)
    B.CreateAlignedStore(SVal, SPtr, SI.getAlign(), SI.isVolatile());
}

void ForwardModeSynthesizer::visitMemIntrinsic(MemIntrinsic &MI,
                                               IRBuilderBase &B) {
  if (!AI.hasShadow(MI.getDest()))
    return;
  Value *Dst = shadowOf(MI.getDest(), &MI);
  if (!Dst)
    return;
  Value *Len = primal(MI.getLength());
  if (auto *MT = dyn_cast<MemTransferInst>(&MI)) {
    if (!AI.hasShadow(MT->getSource())) {
      B.CreateMemSet(Dst, B.getInt8(0), Len, MT->getDestAlign());
      return;
    }
    Value *Src = shadowOf(MT->getSource(), &MI);
    if (!Src)
      return;
    if (isa<MemMoveInst>(MT))
      B.CreateMemMove(Dst, MT->getDestAlign(), Src, MT->getSourceAlign(), Len);
    else
      B.CreateMemCpy(Dst, MT->getDestAlign(), Src, MT->getSourceAlign(), Len);
    return;
  }
  // memset writes constants: their tangent is zero.
  B.CreateMemSet(Dst, B.getInt8(0), Len, MI.getDestAlign());
}

void ForwardModeSynthesizer::visitCustomForward(CallBase &CB, Function &Fwd,
                                                IRBuilderBase &B) {
  Function &Callee = *CB.getCalledFunction();
  if (!checkCustomSignature(Callee, Fwd, "forward derivative",
                            forwardDerivativeType(Callee), &CB))
    return;
  SmallVector<Value *, 8> Args;
  for (Value *Op : CB.args()) {
    Args.push_back(primal(Op));
    Type *T = Op->getType();
    if (T->isFPOrFPVectorTy())
      Args.push_back(tangent(Op));
    else if (T->isPointerTy())
      Args.push_back(AI.hasShadow(Op)
                         ? shadowOf(Op, &CB)
                         : ConstantPointerNull::get(cast<PointerType>(T)));
  }
  if (Failed)
    return;
  CallInst *D = B.CreateCall(&Fwd, Args);
  if (AI.isActive(&CB))
    Tangents[&CB] = D;
}

/// A call left in place by preparation (recursion) calls the callee's own
/// tangent function, which also returns the primal result.
void ForwardModeSynthesizer::visitDefinedCall(CallBase &CB, IRBuilderBase &B) {
  DiffRequest CR = calleeRequest(CB);
  if (!CR.ReturnActive &&
      all_of(CR.Args, [](Activity A) { return A == Activity::Const; }))
    return;
  Function *D = CalleeDerivative(CR);
  if (!D) {
    Failed = true;
    return;
  }
  DerivativeSignature CS = computeSignature(CR);
  SmallVector<Value *, 8> Args;
  for (unsigned I = 0; I < CB.arg_size(); ++I) {
    Value *Op = CB.getArgOperand(I);
    Args.push_back(primal(Op));
    if (CS.ShadowArg[I] >= 0)
      Args.push_back(Op->getType()->isPointerTy() ? shadowOf(Op, &CB)
                                                  : tangent(Op));
  }
  if (Failed)
    return;
  CallInst *Call = B.CreateCall(D, Args);
  // The derivative runs the callee's primal work too: the original call
  // goes (its result taken from the derivative's).
  unsigned Next = 0;
  Instruction *GI = primal(&CB);
  if (CR.ReturnPrimal) {
    Value *Primal =
        CS.Results.size() == 1 ? (Value *)Call : B.CreateExtractValue(Call, 0);
    GI->replaceAllUsesWith(Primal);
    ++Next;
  }
  GI->eraseFromParent();
  if (CR.ReturnActive)
    Tangents[&CB] = CS.Results.size() == 1 ? (Value *)Call
                                           : B.CreateExtractValue(Call, Next);
}

void ForwardModeSynthesizer::finishTangentPhis() {
  for (BasicBlock &PB : P)
    for (PHINode &Phi : PB.phis()) {
      auto *TP = dyn_cast_or_null<PHINode>(Tangents.lookup(&Phi));
      if (!TP)
        continue;
      for (unsigned I = 0; I < Phi.getNumIncomingValues(); ++I)
        TP->addIncoming(tangent(Phi.getIncomingValue(I)),
                        primal(Phi.getIncomingBlock(I)));
    }
}

void ForwardModeSynthesizer::replaceReturn(ReturnInst &PRet) {
  auto *GRet = cast<ReturnInst>(primal(&PRet));
  IRBuilder<> B(GRet);
  SmallVector<Value *, 2> Results;
  Value *RV = PRet.getReturnValue();
  if (R.ReturnPrimal && RV)
    Results.push_back(primal(RV));
  if (R.ReturnActive)
    Results.push_back(tangent(RV));
  emitResultReturn(B, Sig, Results);
  GRet->eraseFromParent();
}

} // namespace tapestry
