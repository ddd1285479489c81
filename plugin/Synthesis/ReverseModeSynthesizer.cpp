//===- ReverseModeSynthesizer.cpp -----------------------------------------===//
#include "Synthesis/ReverseModeSynthesizer.h"

#include "Analysis/PromotedCopy.h"
#include "Analysis/TapeAnalysis.h"
#include "Core/Diagnostics.h"
#include "Core/EnzymeOptions.h"
#include "Core/MathFunctions.h"
#include "Core/OpenMPRuntime.h"
#include "Synthesis/CustomSignatures.h"
#include "Synthesis/DerivativeRules.h"
#include "Synthesis/FreedShadows.h"
#include "Synthesis/InlineHelpers.h"
#include "Synthesis/TapeCache.h"
#include "Synthesis/TapeSplitter.h"
#include "Synthesis/VectorRules.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

ReverseModeSynthesizer::ReverseModeSynthesizer(const SynthesisInput &In)
    : SynthesizerBase(In), DT(In.DT), LI(In.LI), SE(In.SE) {}

Function *ReverseModeSynthesizer::run() {
  for (BasicBlock &PB : P)
    if (auto *RI = dyn_cast<ReturnInst>(PB.getTerminator())) {
      assert(!PrimalRet && "prepared primal has one return");
      PrimalRet = RI;
      RetBlock = &PB;
    }
  if (!PrimalRet) {
    fail(nullptr, "the function never returns");
    return nullptr;
  }
  createFunction();
  for (BasicBlock &PB : P) {
    PrimalBlocks[primal(&PB)] = &PB;
    for (Instruction &PI : PB)
      PrimalOf[primal(&PI)] = &PI;
  }
  AllocaBlock = &G->getEntryBlock();
  LLVMContext &C = G->getContext();
  for (BasicBlock &PB : P)
    RevBlocks[&PB] = BasicBlock::Create(C, "rev." + PB.getName(), G);
  FinalBlock = BasicBlock::Create(C, "rev.return", G);

  recordPredecessors();
  buildForwardSweep();
  if (Failed) {
    G->eraseFromParent();
    return nullptr;
  }

  // The forward sweep ends where the reverse sweep starts by seeding the
  // return's adjoint.
  auto *GRet = cast<ReturnInst>(primal(PrimalRet));
  Boundary.ReverseStart =
      BasicBlock::Create(C, "rev.start", G, RevBlocks[&P.front()]);
  BranchInst::Create(Boundary.ReverseStart, GRet);
  GRet->eraseFromParent();
  IRBuilder<> B(Boundary.ReverseStart);
  if (Value *RV = PrimalRet->getReturnValue()) {
    ReturnValue = primal(RV);
    Boundary.PrimalReturn = ReturnValue;
    if (R.ReturnActive && AI.isActive(RV))
      addAdjoint(RV, G->getArg(Sig.SeedArg), B);
  }
  B.CreateBr(RevBlocks[RetBlock]);

  for (BasicBlock &PB : P)
    buildReverseBlock(PB);
  emitFinalReturn();
  materializeTape();
  if (Failed) {
    G->eraseFromParent();
    return nullptr;
  }
  for (Instruction *GI : dropUnneededPrimalWrites())
    PrimalOf.erase(GI);
  for (unsigned I = 0; I < P.arg_size(); ++I)
    if (Sig.ShadowArg[I] >= 0)
      Boundary.ShadowValues.insert(G->getArg(Sig.ShadowArg[I]));
  for (auto &Entry : Shadows)
    Boundary.ShadowValues.insert(Entry.second);
  return G;
}

//===----------------------------------------------------------------------===//
// Forward sweep
//===----------------------------------------------------------------------===//

void ReverseModeSynthesizer::recordPredecessors() {
  for (BasicBlock &PB : P) {
    SmallSetVector<BasicBlock *, 4> Preds(pred_begin(&PB), pred_end(&PB));
    if (Preds.size() < 2 || LoopIVs.count(&PB))
      continue; // Loop headers with a counter need no record.
    BasicBlock *GB = primal(&PB);
    IRBuilder<> B(GB, GB->begin());
    PHINode *Id = B.CreatePHI(B.getInt32Ty(), Preds.size(), "pred.id");
    for (BasicBlock *GPred : predecessors(GB)) {
      BasicBlock *PPred = PrimalBlocks.lookup(GPred);
      Id->addIncoming(B.getInt32(find(Preds, PPred) - Preds.begin()), GPred);
    }
    PredIds[&PB] = Id;
  }
}

void ReverseModeSynthesizer::buildForwardSweep() {
  ReversePostOrderTraversal<Function *> RPO(&P);
  for (BasicBlock *PB : RPO)
    for (Instruction &PI : *PB) {
      Supported.check(PI);
      if (PI.getType()->isPtrOrPtrVectorTy() && AI.hasShadow(&PI))
        createShadow(PI);
    }
  if (Failed)
    return;
  finishShadowPhis();
  SmallVector<std::pair<CallBase *, const CustomGradient *>, 4> Customs;
  for (Instruction &PI : instructions(P))
    if (auto *CB = dyn_cast<CallBase>(&PI))
      if (Function *Callee = CB->getCalledFunction())
        if (const CustomGradient *CG = Rules.gradient(Callee))
          Customs.push_back({CB, CG});
  for (auto [CB, CG] : Customs)
    augmentCustomCall(*CB, *CG);
  SmallVector<CallBase *, 4> Defined;
  for (Instruction &PI : instructions(P))
    if (auto *CB = dyn_cast<CallBase>(&PI))
      if (Function *Callee = CB->getCalledFunction())
        if (!Callee->isDeclaration() && !Rules.gradient(Callee) &&
            !Rules.isOpaque(Callee))
          Defined.push_back(CB);
  for (CallBase *CB : Defined)
    augmentDefinedCall(*CB);
  augmentOpenMP();
  for (Instruction &PI : instructions(P))
    if (auto *CB = dyn_cast<CallBase>(&PI))
      if (auto BC = findBlasCall(*CB);
          BC && !Rules.gradient(CB->getCalledFunction()) &&
          !isInactiveCall(*CB, &Rules))
        augmentBlasCall(*CB, *BC);
  for (Instruction &PI : instructions(P))
    if (auto *CB = dyn_cast<CallBase>(&PI); CB && isOutParamAllocation(*CB))
      OutParamShadows[CB] = allocateOutParamShadow(*CB);
  for (Instruction &PI : instructions(P))
    if (auto *CB = dyn_cast<CallBase>(&PI);
        CB && CB->getType()->isVoidTy() && isShadowMirrorCall(*CB) &&
        any_of(CB->args(), [&](Value *A) { return AI.hasShadow(A); }))
      mirrorCall(*CB);
  // Memory the function allocates and frees stays alive until the reverse
  // sweep has finished reading it (reloads, shadows).
  for (Instruction &PI : instructions(P))
    if (auto *CB = dyn_cast<CallBase>(&PI))
      if (isDeferredFree(*CB, LI)) {
        DeferredFrees[getUnderlyingObject(freedPointer(*CB), 0)] = CB;
        primal(CB)->eraseFromParent();
      }
  // Pointers stored into shadowed memory have their shadows stored into the
  // shadow memory, so that loading the pointer back finds its shadow.
  for (Instruction &PI : instructions(P)) {
    // A constant pointer's shadow is itself (Analysis/RuntimeActivity.h).
    auto *SI = dyn_cast<StoreInst>(&PI);
    if (!SI || !SI->getValueOperand()->getType()->isPtrOrPtrVectorTy() ||
        !AI.hasShadow(SI->getPointerOperand()) ||
        (!AI.hasShadow(SI->getValueOperand()) && !RA.MarkerStores.count(SI)))
      continue;
    IRBuilder<> B(primal(SI)->getNextNode());
    Value *SVal = shadowToStore(B, SI->getValueOperand(), SI);
    Value *SPtr = shadowOf(SI->getPointerOperand(), SI);
    Value *GP = RA.mayBeConstant(SI->getPointerOperand())
                    ? primal(SI->getPointerOperand())
                    : nullptr;
    if (SVal && SPtr)
      for (unsigned K = 0; K < W; ++K) {
        Value *SK = lane(B, SPtr, K);
        if (GP)
          SK = guardedShadow(B, SK, GP, SI->getValueOperand()->getType());
        B.CreateAlignedStore(lane(B, SVal, K), SK, SI->getAlign());
      }
  }
  // Bytes copied without a type carry the shadows of the pointers among
  // them (ReverseByteCopies.cpp).
  for (Instruction &PI : instructions(P))
    copyPointerShadows(PI);
  // Pointers copied from constant memory into shadowed memory are their
  // own shadows (runtime activity).
  for (Instruction &PI : instructions(P))
    if (auto *MT = dyn_cast<MemTransferInst>(&PI))
      if (AI.hasShadow(MT->getDest()) && !AI.hasShadow(MT->getSource()) &&
          copiesOnlyPointers(*MT)) {
        IRBuilder<> B(primal(MT)->getNextNode());
        copyConstantPointerShadows(B, *MT);
      }
  // A block freed by the forward sweep keeps its shadow until the reverse
  // sweep is done with it (FreedShadows.h).
  for (Instruction &PI : instructions(P)) {
    auto *CB = dyn_cast<CallBase>(&PI);
    if (!CB || !isDeallocationCall(*CB) || isDeferredFree(*CB, LI) ||
        !AI.hasShadow(freedPointer(*CB)))
      continue;
    Value *S = shadowOf(freedPointer(*CB), CB);
    if (!S)
      continue;
    IRBuilder<> B(primal(CB));
    Value *Kind = freedShadowKindOf(*CB, B);
    if (!Kind)
      continue;
    for (unsigned K = 0; K < W; ++K)
      B.CreateCall(getFreedShadowPushFn(module()), {lane(B, S, K), Kind});
  }
  // Active values stored where no shadow can receive their adjoint would
  // lose it silently.
  for (Instruction &PI : instructions(P))
    if (auto *SI = dyn_cast<StoreInst>(&PI))
      if (losesDerivative(*SI))
        reportLostStore(*SI);
}

//===----------------------------------------------------------------------===//
// Adjoints
//===----------------------------------------------------------------------===//

AllocaInst *ReverseModeSynthesizer::entryAlloca(Type *T, const Twine &Name) {
  IRBuilder<> B(AllocaBlock, AllocaBlock->getFirstInsertionPt());
  return B.CreateAlloca(T, nullptr, Name);
}

/// -0.0 (in every lane and member): the exact additive identity, so that
/// the first accumulation `slot + d` folds to `d` (0.0 + d does not when d
/// may be -0.0).
static Constant *additiveIdentity(Type *T) {
  if (T->isFPOrFPVectorTy())
    return ConstantFP::getNegativeZero(T);
  if (auto *ST = dyn_cast<StructType>(T)) {
    SmallVector<Constant *, 4> Elts;
    for (Type *E : ST->elements())
      Elts.push_back(additiveIdentity(E));
    return ConstantStruct::get(ST, Elts);
  }
  if (auto *AT = dyn_cast<ArrayType>(T))
    return ConstantArray::get(
        AT, SmallVector<Constant *, 4>(AT->getNumElements(),
                                       additiveIdentity(AT->getElementType())));
  return Constant::getNullValue(T);
}

AllocaInst *ReverseModeSynthesizer::adjointSlot(const Value *PV) {
  if (AllocaInst *S = AdjointSlots.lookup(PV))
    return S;
  Type *T = batchTy(PV->getType());
  AllocaInst *S = entryAlloca(T, PV->getName() + ".adj");
  IRBuilder<> B(S->getNextNode());
  B.CreateStore(additiveIdentity(T), S);
  AdjointSlots[PV] = S;
  return S;
}

Value *ReverseModeSynthesizer::takeAdjoint(Value *PV, IRBuilderBase &B) {
  AllocaInst *S = adjointSlot(PV);
  Type *T = batchTy(PV->getType());
  Value *V = B.CreateLoad(T, S, PV->getName() + ".d");
  B.CreateStore(additiveIdentity(T), S);
  return V;
}

/// A + B for floating-point scalars, vectors and aggregates of them.
static Value *addValues(IRBuilderBase &B, Value *X, Value *Y) {
  Type *T = X->getType();
  if (T->isFPOrFPVectorTy())
    return B.CreateFAdd(X, Y);
  unsigned N =
      isa<StructType>(T) ? T->getStructNumElements() : T->getArrayNumElements();
  Value *Agg = X;
  for (unsigned I = 0; I < N; ++I)
    Agg = B.CreateInsertValue(
        Agg,
        addValues(B, B.CreateExtractValue(X, I), B.CreateExtractValue(Y, I)),
        I);
  return Agg;
}

void ReverseModeSynthesizer::addAdjoint(Value *PV, Value *Delta,
                                        IRBuilderBase &B) {
  if (!AI.isActive(PV))
    return;
  assert(Delta->getType() == batchTy(PV->getType()) &&
         "adjoint of the wrong type");
  AllocaInst *S = adjointSlot(PV);
  Value *Old = B.CreateLoad(Delta->getType(), S);
  B.CreateStore(addValues(B, Old, Delta), S);
}

//===----------------------------------------------------------------------===//
// The cache
//===----------------------------------------------------------------------===//

BasicBlock *ReverseModeSynthesizer::primalBlockOf(Value *GV) const {
  auto *I = dyn_cast<Instruction>(GV);
  return I ? PrimalBlocks.lookup(I->getParent()) : nullptr;
}

Value *ReverseModeSynthesizer::lookup(Value *GV, BasicBlock *PB,
                                      IRBuilderBase &B) {
  BasicBlock *Def = primalBlockOf(GV);
  if (!Def)
    return GV; // Arguments, constants.
  Loop *DefLoop = LI.getLoopFor(Def);
  if (!DefLoop && DT.dominates(Def, RetBlock))
    return GV; // Dominates the whole reverse sweep.
  // A loop's counter inside that loop is the reverse counter.
  if (Instruction *PI = PrimalOf.lookup(GV))
    if (DefLoop && DefLoop->getHeader() == Def && DefLoop->contains(PB) &&
        LoopIVs.lookup(Def) == PI)
      return B.CreateLoad(B.getInt64Ty(), reverseCounter(DefLoop), "iv.rev");
  if (Value *V = rebuildRecurrence(GV, PB, B))
    return V;
  if (Value *V = recompute(GV, PB, B))
    return V;
  Loop *Shared = DefLoop;
  while (Shared && !Shared->contains(PB))
    Shared = Shared->getParentLoop();
  if (Shared) {
    LoopCache &LC = LoopCaches[Shared];
    iterationCounter(Shared);
    unsigned Field = LC.Fields.insert({GV, LC.Fields.size()}).first->second;
    LoadInst *Ld = B.CreateLoad(GV->getType(), PoisonValue::get(B.getPtrTy()),
                                GV->getName() + ".tape");
    LC.Reads.push_back({Ld, Field});
    return Ld;
  }
  AllocaInst *&Slot = OnceSlots[GV];
  if (!Slot) {
    Slot = entryAlloca(GV->getType(), GV->getName() + ".cache");
    auto *GI = cast<Instruction>(GV);
    IRBuilder<> SB(GI->getParent(), isa<PHINode>(GI)
                                        ? GI->getParent()->getFirstNonPHIIt()
                                        : std::next(GI->getIterator()));
    SB.CreateStore(GV, Slot);
  }
  return B.CreateLoad(GV->getType(), Slot, GV->getName() + ".r");
}

Value *ReverseModeSynthesizer::recompute(Value *GV, BasicBlock *PB,
                                         IRBuilderBase &B) {
  auto *I = cast<Instruction>(GV);
  bool Cheap = isa<GetElementPtrInst>(I) || isa<CastInst>(I) ||
               isa<ICmpInst>(I) || isa<FreezeInst>(I) ||
               (isa<BinaryOperator>(I) && I->getType()->isIntOrIntVectorTy()) ||
               // Batch mode's gathering of per-lane shadows into [W x ptr]:
               // recomputed so the tape holds no lane more than once.
               (W > 1 && !PrimalOf.count(I) &&
                (isa<ExtractValueInst>(I) || isa<InsertValueInst>(I)));
  if (auto *Load = dyn_cast<LoadInst>(I)) {
    auto *PL = dyn_cast_or_null<LoadInst>(PrimalOf.lookup(Load));
    Cheap = PL && Tape.Reloadable.count(PL);
  }
  if (!Cheap)
    return nullptr;
  auto Key = std::make_pair(GV, B.GetInsertBlock());
  if (Value *V = Recomputed.lookup(Key))
    return V;
  Instruction *C = I->clone();
  for (unsigned Op = 0; Op < C->getNumOperands(); ++Op)
    C->setOperand(Op, lookup(C->getOperand(Op), PB, B));
  B.Insert(C, GV->getName() + ".re");
  Recomputed[Key] = C;
  return C;
}

Value *ReverseModeSynthesizer::rebuildRecurrence(Value *GV, BasicBlock *PB,
                                                 IRBuilderBase &B) {
  auto *Phi = dyn_cast_or_null<PHINode>(PrimalOf.lookup(GV));
  if (!Phi || !SE.isSCEVable(Phi->getType()))
    return nullptr;
  const SCEV *S = SE.getSCEV(Phi);
  if (!isa<SCEVAddRecExpr>(S))
    return nullptr;
  Value *V = expandSCEV(S, PB, B);
  if (V && V->getType() != Phi->getType())
    return nullptr;
  if (V)
    V->setName(GV->getName() + ".re");
  return V;
}

Value *ReverseModeSynthesizer::expandSCEV(const SCEV *S, BasicBlock *PB,
                                          IRBuilderBase &B) {
  if (auto *C = dyn_cast<SCEVConstant>(S))
    return C->getValue();
  if (auto *U = dyn_cast<SCEVUnknown>(S)) {
    Value *V = U->getValue();
    if (isa<Constant>(V))
      return V;
    auto *I = dyn_cast<Instruction>(V);
    if (I && DT.dominates(I->getParent(), PB) == false && !isa<Argument>(V))
      return nullptr;
    return lookup(primal(V), PB, B);
  }
  if (auto *Cast = dyn_cast<SCEVCastExpr>(S)) {
    Value *Op = expandSCEV(Cast->getOperand(), PB, B);
    if (!Op || !Op->getType()->isIntegerTy() || !S->getType()->isIntegerTy())
      return nullptr;
    if (isa<SCEVZeroExtendExpr>(S))
      return B.CreateZExt(Op, S->getType());
    if (isa<SCEVSignExtendExpr>(S))
      return B.CreateSExt(Op, S->getType());
    if (isa<SCEVTruncateExpr>(S))
      return B.CreateTrunc(Op, S->getType());
    return nullptr;
  }
  if (auto *NA = dyn_cast<SCEVNAryExpr>(S)) {
    bool IsAdd = isa<SCEVAddExpr>(S), IsMul = isa<SCEVMulExpr>(S);
    if ((IsAdd || IsMul) && S->getType()->isIntegerTy()) {
      Value *Acc = nullptr;
      for (const SCEV *Op : NA->operands()) {
        Value *V = expandSCEV(Op, PB, B);
        if (!V || V->getType() != S->getType())
          return nullptr;
        Acc = !Acc ? V : IsAdd ? B.CreateAdd(Acc, V) : B.CreateMul(Acc, V);
      }
      return Acc;
    }
  }
  auto *AR = dyn_cast<SCEVAddRecExpr>(S);
  if (!AR || !S->getType()->isIntegerTy() || AR->getNumOperands() > 3)
    return nullptr;
  const Loop *L = AR->getLoop();
  if (!L->contains(PB) || !LoopIVs.count(L->getHeader()))
    return nullptr;
  // {A,+,B,+,C} at iteration k is A + B*k + C*k*(k-1)/2.
  Type *T = S->getType();
  Value *K = B.CreateZExtOrTrunc(
      B.CreateLoad(B.getInt64Ty(), reverseCounter(L), "iv.rev"), T);
  Value *Coef[3] = {nullptr, nullptr, nullptr};
  for (unsigned I = 0; I < AR->getNumOperands(); ++I)
    if (!(Coef[I] = expandSCEV(AR->getOperand(I), PB, B)) ||
        Coef[I]->getType() != T)
      return nullptr;
  Value *V = B.CreateAdd(Coef[0], B.CreateMul(Coef[1], K));
  if (Coef[2]) {
    Value *Tri =
        B.CreateLShr(B.CreateMul(K, B.CreateSub(K, ConstantInt::get(T, 1))), 1);
    V = B.CreateAdd(V, B.CreateMul(Coef[2], Tri));
  }
  return V;
}

AllocaInst *ReverseModeSynthesizer::reverseCounter(const Loop *L) {
  AllocaInst *&Slot = ReverseCounters[L];
  if (!Slot)
    Slot = entryAlloca(Type::getInt64Ty(G->getContext()), "iv.rev.slot");
  return Slot;
}

void ReverseModeSynthesizer::enterLoopsBackwards(BasicBlock *Pred,
                                                 BasicBlock *Succ,
                                                 IRBuilderBase &B) {
  for (Loop *L = LI.getLoopFor(Pred); L && !L->contains(Succ);
       L = L->getParentLoop()) {
    PHINode *IV = LoopIVs.lookup(L->getHeader());
    if (!IV)
      continue;
    // The iteration the loop left in is its exit count when SCEV knows it,
    // otherwise the counter's value as cached.
    Value *Last = nullptr;
    const SCEV *Count = SE.getExitCount(L, Pred);
    if (!isa<SCEVCouldNotCompute>(Count))
      if ((Last = expandSCEV(Count, Succ, B)))
        Last = B.CreateZExtOrTrunc(Last, B.getInt64Ty());
    if (!Last)
      Last = lookup(primal(IV), Succ, B);
    B.CreateStore(Last, reverseCounter(L));
  }
}

Value *ReverseModeSynthesizer::expandAtEntry(const SCEV *S, IRBuilderBase &B) {
  Type *T = S->getType();
  if (!T->isIntegerTy())
    return nullptr;
  if (auto *C = dyn_cast<SCEVConstant>(S))
    return C->getValue();
  if (auto *U = dyn_cast<SCEVUnknown>(S))
    return isa<Argument>(U->getValue()) ? primal(U->getValue()) : nullptr;
  if (auto *Cast = dyn_cast<SCEVCastExpr>(S)) {
    Value *Op = expandAtEntry(Cast->getOperand(), B);
    if (!Op || !Op->getType()->isIntegerTy())
      return nullptr;
    if (isa<SCEVZeroExtendExpr>(S))
      return B.CreateZExt(Op, T);
    if (isa<SCEVSignExtendExpr>(S))
      return B.CreateSExt(Op, T);
    if (isa<SCEVTruncateExpr>(S))
      return B.CreateTrunc(Op, T);
    return nullptr;
  }
  if (auto *D = dyn_cast<SCEVUDivExpr>(S)) {
    Value *L = expandAtEntry(D->getLHS(), B),
          *R = expandAtEntry(D->getRHS(), B);
    return L && R ? B.CreateUDiv(L, R) : nullptr;
  }
  auto *NA = dyn_cast<SCEVNAryExpr>(S);
  if (!NA || isa<SCEVAddRecExpr>(S))
    return nullptr;
  Value *Acc = nullptr;
  for (const SCEV *Op : NA->operands()) {
    Value *V = expandAtEntry(Op, B);
    if (!V)
      return nullptr;
    if (!Acc) {
      Acc = V;
      continue;
    }
    switch (S->getSCEVType()) {
    case scAddExpr:
      Acc = B.CreateAdd(Acc, V);
      break;
    case scMulExpr:
      Acc = B.CreateMul(Acc, V);
      break;
    case scSMaxExpr:
      Acc = B.CreateBinaryIntrinsic(Intrinsic::smax, Acc, V);
      break;
    case scUMaxExpr:
      Acc = B.CreateBinaryIntrinsic(Intrinsic::umax, Acc, V);
      break;
    case scSMinExpr:
      Acc = B.CreateBinaryIntrinsic(Intrinsic::smin, Acc, V);
      break;
    case scUMinExpr:
      Acc = B.CreateBinaryIntrinsic(Intrinsic::umin, Acc, V);
      break;
    default:
      return nullptr;
    }
  }
  return Acc;
}

Value *ReverseModeSynthesizer::iterationsFromEntry(const Loop *L,
                                                   IRBuilderBase &B) {
  Value *Total = nullptr;
  for (const Loop *Cur = L; Cur; Cur = Cur->getParentLoop()) {
    const SCEV *BTC = SE.getBackedgeTakenCount(Cur);
    if (isa<SCEVCouldNotCompute>(BTC))
      return nullptr;
    Value *Trips = expandAtEntry(BTC, B);
    if (!Trips)
      return nullptr;
    Trips =
        B.CreateAdd(B.CreateZExtOrTrunc(Trips, B.getInt64Ty()), B.getInt64(1));
    Total = Total ? B.CreateMul(Total, Trips) : Trips;
  }
  return Total;
}

AllocaInst *ReverseModeSynthesizer::iterationCounter(const Loop *L) {
  auto &Entry = IterationCounters[L];
  if (Entry.first)
    return Entry.first;
  Type *I64 = Type::getInt64Ty(G->getContext());
  AllocaInst *Counter = entryAlloca(I64, "iter");
  IRBuilder<>(Counter->getNextNode())
      .CreateStore(ConstantInt::get(I64, -1, true), Counter);
  BasicBlock *H = primal(L->getHeader());
  IRBuilder<> B(H, H->getFirstNonPHIIt());
  Value *Next = B.CreateAdd(B.CreateLoad(I64, Counter), B.getInt64(1));
  Entry = {Counter, B.CreateStore(Next, Counter)};
  return Counter;
}

/// -enzyme-print-perf: the -Rpass=tapestry remark \p MakeRemark makes, on
/// stderr.
template <typename RemarkFn> static void printPerf(RemarkFn MakeRemark) {
  if (enzymePrintPerf())
    errs() << "tapestry: " << MakeRemark().getMsg() << "\n";
}

void ReverseModeSynthesizer::materializeTape() {
  Module &M = module();
  const DataLayout &DL = M.getDataLayout();
  StructType *StateTy = getTapeStateType(M);
  Function *Reserve = getTapeReserveFn(M);
  SmallVector<AllocaInst *, 4> States;
  OptimizationRemarkEmitter ORE(R.Fn);
  for (auto &LoopEntry : LoopCaches) {
    const Loop *L = LoopEntry.first;
    LoopCache &LC = LoopEntry.second;
    SmallVector<Type *, 8> FieldTys;
    for (auto &Entry : LC.Fields)
      FieldTys.push_back(Entry.first->getType());
    StructType *RecTy = StructType::get(G->getContext(), FieldTys);
    uint64_t Bytes = alignTo(DL.getTypeAllocSize(RecTy), 8);
    // -Rpass=tapestry (and -enzyme-print-perf): what the tape holds and why
    // it costs what it does.
    auto LoopRemark = [&]() {
      OptimizationRemark Rem("tapestry", "LoopTape", L->getStartLoc(),
                             &R.Fn->getEntryBlock());
      Rem << "reverse sweep of '" << R.Fn->getName() << "' caches "
          << std::to_string(LC.Fields.size()) << " value(s), "
          << std::to_string(Bytes) << " bytes per iteration of this loop:";
      for (auto &Entry : LC.Fields) {
        Instruction *PI = PrimalOf.lookup(Entry.first);
        Rem << " " << describe(PI ? (Value *)PI : Entry.first) << ";";
      }
      return Rem;
    };
    ORE.emit(LoopRemark);
    printPerf(LoopRemark);
    AllocaInst *State = entryAlloca(StateTy, "tape");
    // The records start in a block an earlier call left (TapeCache.h).
    IRBuilder<> SB(State->getNextNode());
    SB.CreateStore(Constant::getNullValue(StateTy), State);
    CallInst *Acquire = SB.CreateCall(getTapeAcquireFn(M), {State});
    States.push_back(State);
    AllocaInst *Counter = IterationCounters[L].first;
    StoreInst *Advance = IterationCounters[L].second;
    // Forward: room for this iteration's record, then each value stored
    // where it is computed.
    // When ScalarEvolution knows how often the loop nest runs from the
    // function's arguments, the records are allocated once up front (the
    // per-iteration check below then never grows them).
    IRBuilder<> EB(Acquire->getNextNode());
    if (Value *Total = iterationsFromEntry(L, EB))
      EB.CreateCall(
          Reserve,
          {State, EB.CreateBinaryIntrinsic(
                      Intrinsic::umin, EB.CreateMul(Total, EB.getInt64(Bytes)),
                      EB.getInt64(uint64_t(1) << 30))});
    IRBuilder<> HB(Advance->getNextNode());
    Value *Count = HB.CreateAdd(Advance->getValueOperand(), HB.getInt64(1));
    CallInst *Ready = HB.CreateCall(
        Reserve, {State, HB.CreateMul(Count, HB.getInt64(Bytes))});
    auto RecordField = [&](IRBuilderBase &IB, unsigned Field) {
      Value *Base =
          IB.CreateLoad(IB.getPtrTy(), IB.CreateStructGEP(StateTy, State, 0));
      Value *Idx = IB.CreateLoad(IB.getInt64Ty(), Counter);
      Value *Rec = IB.CreateGEP(RecTy, Base, Idx);
      return IB.CreateStructGEP(RecTy, Rec, Field);
    };
    for (auto &[V, Field] : LC.Fields) {
      auto *I = cast<Instruction>(V);
      BasicBlock *BB = I->getParent();
      IRBuilder<> SB(BB, std::next(I->getIterator()));
      if (isa<PHINode>(I))
        SB.SetInsertPoint(BB, BB == Ready->getParent()
                                  ? std::next(Ready->getIterator())
                                  : BB->getFirstNonPHIIt());
      SB.CreateAlignedStore(V, RecordField(SB, Field), Align(8));
    }
    // Reverse: each read comes from the current iteration's record.
    for (auto [Ld, Field] : LC.Reads) {
      IRBuilder<> RB(Ld);
      Ld->setOperand(Ld->getPointerOperandIndex(), RecordField(RB, Field));
      Ld->setAlignment(Align(8));
    }
  }
  // The reverse of an iteration ends where its header's reverse block
  // leaves: the previous iteration's record becomes current.
  for (auto &[L, Entry] : IterationCounters) {
    AllocaInst *Counter = Entry.first;
    for (BasicBlock *Exit : RevHeaderExits[L->getHeader()]) {
      IRBuilder<> B(Exit->getTerminator());
      B.CreateStore(
          B.CreateSub(B.CreateLoad(B.getInt64Ty(), Counter), B.getInt64(1)),
          Counter);
    }
  }
  if (!OnceSlots.empty() || States.empty()) {
    auto TapeRemark = [&]() {
      OptimizationRemark Rem("tapestry", "Tape", R.Fn);
      Rem << "reverse sweep of '" << R.Fn->getName() << "' caches "
          << std::to_string(OnceSlots.size()) << " value(s) computed once and "
          << (States.empty() ? "nothing per loop iteration"
                             : "records per loop iteration (see above)");
      return Rem;
    };
    ORE.emit(TapeRemark);
    printPerf(TapeRemark);
  }
  if (States.empty())
    return;
  // The records go back to the thread's cache as the reverse sweep ends.
  IRBuilder<> B(FinalBlock->getTerminator());
  for (AllocaInst *State : States) {
    Boundary.RecordStates.push_back(State);
    Boundary.RecordFrees.push_back(B.CreateCall(getTapeRecycleFn(M), {State}));
  }
}

//===----------------------------------------------------------------------===//
// Reverse sweep
//===----------------------------------------------------------------------===//

void ReverseModeSynthesizer::buildReverseBlock(BasicBlock &PB) {
  IRBuilder<> B(RevBlocks[&PB]);
  Builder = &B;
  // Phis and the terminator are reversed with the block's control flow.
  for (Instruction &PI : reverse(PB))
    if (!PI.isTerminator() && !isa<PHINode>(PI))
      visit(PI);
  Builder = nullptr;
  emitTerminatorReverse(PB, B);
}

void ReverseModeSynthesizer::emitTerminatorReverse(BasicBlock &PB,
                                                   IRBuilderBase &B) {
  SmallVector<std::pair<PHINode *, Value *>, 4> PhiAdjoints;
  for (PHINode &Phi : PB.phis())
    if (AI.isActive(&Phi))
      PhiAdjoints.push_back({&Phi, takeAdjoint(&Phi, B)});
  if (&PB == &P.getEntryBlock()) {
    B.CreateBr(FinalBlock);
    return;
  }
  SmallSetVector<BasicBlock *, 4> Preds(pred_begin(&PB), pred_end(&PB));
  if (Preds.empty()) {
    B.CreateUnreachable();
    return;
  }
  Loop *L = LI.getLoopFor(&PB);
  bool IsHeader = L && L->getHeader() == &PB;
  auto FromPred = [&](BasicBlock *Pred, IRBuilderBase &EB) {
    for (auto &[Phi, D] : PhiAdjoints)
      addAdjoint(Phi->getIncomingValueForBlock(Pred), D, EB);
    enterLoopsBackwards(Pred, &PB, EB);
    if (IsHeader)
      RevHeaderExits[&PB].push_back(EB.GetInsertBlock());
    EB.CreateBr(RevBlocks[Pred]);
  };
  LLVMContext &C = G->getContext();
  if (IsHeader && LoopIVs.count(&PB)) {
    // Iteration K of the loop was entered from the latch of iteration K-1,
    // or from the preheader when K is 0.
    AllocaInst *Counter = reverseCounter(L);
    Value *K = B.CreateLoad(B.getInt64Ty(), Counter, "iv.rev");
    auto *First = BasicBlock::Create(C, "rev." + PB.getName() + ".first", G);
    auto *Back = BasicBlock::Create(C, "rev." + PB.getName() + ".back", G);
    B.CreateCondBr(B.CreateICmpEQ(K, B.getInt64(0)), First, Back);
    IRBuilder<> FB(First);
    FromPred(L->getLoopPreheader(), FB);
    IRBuilder<> BB(Back);
    BB.CreateStore(BB.CreateSub(K, BB.getInt64(1)), Counter);
    FromPred(L->getLoopLatch(), BB);
    return;
  }
  if (Preds.size() == 1) {
    FromPred(Preds[0], B);
    return;
  }
  Value *Id = lookup(PredIds[&PB], &PB, B);
  SmallVector<BasicBlock *, 4> Edges;
  for (BasicBlock *Pred : Preds) {
    auto *E = BasicBlock::Create(
        C, "rev." + PB.getName() + ".from." + Pred->getName(), G);
    IRBuilder<> EB(E);
    FromPred(Pred, EB);
    Edges.push_back(E);
  }
  SwitchInst *SW = B.CreateSwitch(Id, Edges[0], Edges.size() - 1);
  for (unsigned I = 1; I < Edges.size(); ++I)
    SW->addCase(B.getInt32(I), Edges[I]);
}

void ReverseModeSynthesizer::emitFinalReturn() {
  IRBuilder<> B(FinalBlock);
  SmallVector<Value *, 4> Results;
  if (R.ReturnPrimal && ReturnValue)
    Results.push_back(ReturnValue);
  for (unsigned I = 0; I < P.arg_size(); ++I) {
    if (R.Args[I] != Activity::Active)
      continue;
    Argument *A = P.getArg(I);
    Type *T = A->getType();
    Results.push_back(
        AI.isActive(A)
            ? toResult(B, B.CreateLoad(batchTy(T), adjointSlot(A)), T, W)
            : Constant::getNullValue(batchResultType(T, W)));
  }
  emitResultReturn(B, Sig, Results);
}

//===----------------------------------------------------------------------===//
// The adjoint of each instruction (InstVisitor)
//===----------------------------------------------------------------------===//

void ReverseModeSynthesizer::visitStoreInst(StoreInst &SI) {
  reverseStore(SI, *Builder);
}

void ReverseModeSynthesizer::visitLoadInst(LoadInst &LI) {
  // Bytes an integer load moves (ReverseByteCopies.cpp).
  if (isCopyLoad(LI))
    return reverseCopyLoad(LI, *Builder);
  if (AI.isActive(&LI))
    reverseLoad(LI, *Builder);
}

void ReverseModeSynthesizer::visitMemIntrinsic(MemIntrinsic &MI) {
  reverseMemIntrinsic(MI, *Builder);
}

void ReverseModeSynthesizer::visitAtomicRMWInst(AtomicRMWInst &RMW) {
  // OpenMP atomic updates (Synthesis/OpenMPRegions.cpp).
  reverseAtomicRMW(RMW, *Builder);
}

void ReverseModeSynthesizer::visitRuleOperation(Instruction &PI) {
  if (AI.isActive(&PI) && findInstructionRule(PI.getOpcode()))
    reverseRule(PI, *Builder);
}

void ReverseModeSynthesizer::visitShuffleVectorInst(ShuffleVectorInst &SV) {
  if (AI.isActive(&SV))
    reverseShuffle(SV, *Builder);
}

void ReverseModeSynthesizer::visitFPCast(CastInst &Cast) {
  if (!AI.isActive(&Cast))
    return;
  IRBuilderBase &B = *Builder;
  Value *D = takeAdjoint(&Cast, B);
  Value *Op = Cast.getOperand(0);
  Type *OpTy = Op->getType();
  addAdjoint(Op,
             OpTy->isFloatingPointTy()
                 ? B.CreateFPCast(D, batchTy(OpTy))
                 : lanes(B, OpTy,
                         [&](unsigned K) {
                           return B.CreateFPCast(lane(B, D, K), OpTy);
                         }),
             B);
}

void ReverseModeSynthesizer::visitSelectInst(SelectInst &Sel) {
  if (!AI.isActive(&Sel))
    return;
  IRBuilderBase &B = *Builder;
  BasicBlock *PB = Sel.getParent();
  Value *D = takeAdjoint(&Sel, B);
  Value *Cond = lookup(primal(Sel.getCondition()), PB, B);
  Type *T = Sel.getType();
  if (W == 1 || !Cond->getType()->isVectorTy()) {
    Value *Zero = Constant::getNullValue(batchTy(T));
    addAdjoint(Sel.getTrueValue(), B.CreateSelect(Cond, D, Zero), B);
    addAdjoint(Sel.getFalseValue(), B.CreateSelect(Cond, Zero, D), B);
    return;
  }
  Value *Zero = Constant::getNullValue(T);
  addAdjoint(Sel.getTrueValue(),
             lanes(B, T,
                   [&](unsigned K) {
                     return B.CreateSelect(Cond, lane(B, D, K), Zero);
                   }),
             B);
  addAdjoint(Sel.getFalseValue(),
             lanes(B, T,
                   [&](unsigned K) {
                     return B.CreateSelect(Cond, Zero, lane(B, D, K));
                   }),
             B);
}

void ReverseModeSynthesizer::visitExtractValueInst(ExtractValueInst &EV) {
  if (!AI.isActive(&EV))
    return;
  IRBuilderBase &B = *Builder;
  Value *D = takeAdjoint(&EV, B);
  Value *Agg = EV.getAggregateOperand();
  addAdjoint(Agg,
             lanes(B, Agg->getType(),
                   [&](unsigned K) {
                     return B.CreateInsertValue(
                         Constant::getNullValue(Agg->getType()), lane(B, D, K),
                         EV.getIndices());
                   }),
             B);
}

void ReverseModeSynthesizer::visitInsertValueInst(InsertValueInst &IV) {
  if (!AI.isActive(&IV))
    return;
  IRBuilderBase &B = *Builder;
  Value *D = takeAdjoint(&IV, B);
  Value *Ins = IV.getInsertedValueOperand();
  addAdjoint(Ins,
             lanes(B, Ins->getType(),
                   [&](unsigned K) {
                     return B.CreateExtractValue(lane(B, D, K),
                                                 IV.getIndices());
                   }),
             B);
  addAdjoint(IV.getAggregateOperand(),
             lanes(B, IV.getType(),
                   [&](unsigned K) {
                     return B.CreateInsertValue(
                         lane(B, D, K), Constant::getNullValue(Ins->getType()),
                         IV.getIndices());
                   }),
             B);
}

void ReverseModeSynthesizer::visitExtractElementInst(ExtractElementInst &EE) {
  if (!AI.isActive(&EE))
    return;
  IRBuilderBase &B = *Builder;
  Value *D = takeAdjoint(&EE, B);
  Value *Vec = EE.getVectorOperand();
  Value *Idx = lookup(primal(EE.getIndexOperand()), EE.getParent(), B);
  addAdjoint(Vec,
             lanes(B, Vec->getType(),
                   [&](unsigned K) {
                     return B.CreateInsertElement(
                         Constant::getNullValue(Vec->getType()), lane(B, D, K),
                         Idx);
                   }),
             B);
}

void ReverseModeSynthesizer::visitInsertElementInst(InsertElementInst &IE) {
  if (!AI.isActive(&IE))
    return;
  IRBuilderBase &B = *Builder;
  Value *D = takeAdjoint(&IE, B);
  Value *Idx = lookup(primal(IE.getOperand(2)), IE.getParent(), B);
  Type *EltTy = IE.getOperand(1)->getType();
  addAdjoint(IE.getOperand(1),
             lanes(B, EltTy,
                   [&](unsigned K) {
                     return B.CreateExtractElement(lane(B, D, K), Idx);
                   }),
             B);
  addAdjoint(IE.getOperand(0),
             lanes(B, IE.getType(),
                   [&](unsigned K) {
                     return B.CreateInsertElement(
                         lane(B, D, K), Constant::getNullValue(EltTy), Idx);
                   }),
             B);
}

void ReverseModeSynthesizer::visitCallBase(CallBase &CB) {
  IRBuilderBase &B = *Builder;
  // The hooks, in order; each takes the calls it reverses its own way.
  // OpenMP: parallel regions and synchronisation (OpenMPRegions.cpp).
  if (reverseOpenMP(CB, B))
    return;
  // Registered gradients, then functions with a body that were not inlined
  // (recursion, or too large).
  if (Function *Callee = CB.getCalledFunction()) {
    if (const CustomGradient *CG = Rules.gradient(Callee))
      return reverseCustomCall(CB, *CG, B);
    if (!Callee->isDeclaration() && !Rules.isOpaque(Callee))
      return reverseDefinedCall(CB, B);
  }
  // Allocations: their shadows are freed here.
  if (isOutParamAllocation(CB))
    return reverseOutParamAllocation(CB, B);
  if (isAllocationCall(CB))
    return reverseAllocation(CB, B);
  // Vector intrinsics: reductions, masked accesses, lane moves
  // (VectorRules.cpp).
  if (isVectorRuleCall(CB))
    return reverseVectorCall(CB, B);
  // A value with derivative 0 stored through a pointer (modf's integer
  // part, std::cin >> x): the adjoint of that memory is dropped.
  if (auto [Out, T] = constantOutParam(CB); Out)
    if (Value *S = shadowOf(Out, &CB)) {
      S = lookup(S, CB.getParent(), B);
      for (unsigned K = 0; K < W; ++K)
        B.CreateStore(Constant::getNullValue(T), lane(B, S, K));
    }
  // BLAS routines, by calling BLAS (BlasRules.cpp).
  if (auto BC = findBlasCall(CB); BC && !isInactiveCall(CB, &Rules))
    return reverseBlasCall(CB, *BC, B);
  // The derivative rules table (math functions and intrinsics). Other calls
  // carry no derivative, or were rejected by SupportedInstructions.
  if (AI.isActive(&CB) && ruleFor(CB))
    reverseRule(CB, B);
}

void ReverseModeSynthesizer::reverseAllocation(CallBase &CB, IRBuilderBase &B) {
  // The shadow lives until the reverse sweep has used it, and so does
  // primal memory whose free was deferred.
  StringRef Name = CB.getCalledFunction()->getName();
  StringRef FreeName = Name == "_Znwm"   ? "_ZdlPv"
                       : Name == "_Znam" ? "_ZdaPv"
                                         : "free";
  if (std::optional<CustomAllocator> Custom =
          customAllocator(*CB.getCalledFunction())) {
    reverseCustomAllocation(CB, *Custom, B);
    return;
  }
  FunctionCallee Free = module().getOrInsertFunction(
      FreeName, FunctionType::get(B.getVoidTy(), {B.getPtrTy()}, false));
  if (AI.hasShadow(&CB) && Shadows.count(&CB)) {
    // A block the function frees, or never stores anywhere, has its shadow
    // freed here. A block stored somewhere goes with its shadow: freed here
    // if the forward sweep freed the block (it is then listed,
    // FreedShadows.h), else the block outlives the call and the caller's
    // shadow memory holds its shadow beside it.
    bool Owned = DeferredFrees.lookup(&CB) ||
                 !PointerMayBeCaptured(&CB, /*ReturnCaptures=*/true,
                                       /*StoreCaptures=*/true);
    Value *S = lookup(Shadows[&CB], CB.getParent(), B);
    for (unsigned K = 0; K < W; ++K) {
      Value *SK = lane(B, S, K);
      Value *Freed = B.CreateCall(getFreedShadowTakeFn(module()), {SK});
      // free(NULL) and delete of a null pointer do nothing.
      B.CreateCall(Free, {Owned ? SK
                                : B.CreateSelect(
                                      Freed, SK,
                                      ConstantPointerNull::get(B.getPtrTy()))});
    }
  }
  replayDeferredFree(CB, B);
}

/// Shadow arguments of a registered derivative: the shadow where the pointer
/// has one, null otherwise.
static Value *shadowOrNull(Value *S, Type *T) {
  return S ? S : ConstantPointerNull::get(cast<PointerType>(T));
}

/// True if \p F writes no memory but its own stack and what it allocates
/// itself (a registered augmented forward filling the tape it returns), so
/// running it once more repeats no side effect.
static bool writesOnlyFreshMemoryPromoted(Function &F, unsigned Depth);

static bool writesOnlyFreshMemory(Function &F, unsigned Depth = 4) {
  // As the front end wrote it, every local goes through the stack: look at
  // a copy with its slots promoted to values.
  Function *Copy = clonePromoted(F);
  bool Result = writesOnlyFreshMemoryPromoted(*Copy, Depth);
  Copy->eraseFromParent();
  return Result;
}

static bool writesOnlyFreshMemoryPromoted(Function &F, unsigned Depth) {
  auto Fresh = [&](const Value *Ptr) {
    const Value *Obj = getUnderlyingObject(Ptr, 0);
    if (isa<AllocaInst>(Obj))
      return true;
    auto *CB = dyn_cast<CallBase>(Obj);
    return CB && CB->getFunction() == &F && isAllocationCall(*CB);
  };
  for (Instruction &I : instructions(F)) {
    if (auto *SI = dyn_cast<StoreInst>(&I)) {
      if (!Fresh(SI->getPointerOperand()))
        return false;
    } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
      if (!Fresh(MI->getDest()))
        return false;
    } else if (auto *CB = dyn_cast<CallBase>(&I)) {
      if (isAllocationCall(*CB) ||
          (findMathFunction(*CB) && !mathWritesMemory(*CB)) ||
          CB->onlyReadsMemory())
        continue;
      // A callee with a body (pointer arguments aside) is held to the same.
      Function *Callee = CB->getCalledFunction();
      if (Callee && !Callee->isDeclaration() && Depth > 0 &&
          none_of(CB->args(),
                  [](Value *A) { return A->getType()->isPointerTy(); }) &&
          writesOnlyFreshMemory(*Callee, Depth - 1))
        continue;
      if (auto *II = dyn_cast<IntrinsicInst>(CB))
        if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
          continue;
      return false;
    } else if (I.mayWriteToMemory()) {
      return false;
    }
  }
  return true;
}

void ReverseModeSynthesizer::augmentCustomCall(CallBase &CB,
                                               const CustomGradient &CG) {
  Function &Callee = *CB.getCalledFunction();
  Function &Aug = *CG.Augmented;
  if (W > 1 && (!writesOnlyFreshMemory(Aug) ||
                any_of(Callee.getFunctionType()->params(),
                       [](Type *T) { return T->isVectorTy(); }))) {
    fail(&CB, "the gradient registered for '" + sourceName(Callee) +
                  "' cannot serve batch mode (enzyme_width " + Twine(W) +
                  "): its augmented forward writes memory other than the "
                  "tape it allocates, so it cannot run once per lane; use "
                  "width 1 or give the function's body");
    return;
  }
  bool HasTape = augmentedReturnsTape(Callee, Aug);
  if (!checkCustomSignature(Callee, Aug, "augmented forward",
                            augmentedType(Callee, Aug), &CB) ||
      !checkCustomSignature(Callee, *CG.Reverse, "reverse",
                            reverseType(Callee, HasTape), &CB))
    return;
  auto *GI = cast<CallBase>(primal(&CB));
  IRBuilder<> B(GI);
  // In batch mode aug runs once per lane (it repeats no side effect), each
  // run with that lane's shadows and keeping its own tape.
  Value *Result = nullptr;
  SmallVector<Value *, 4> Tapes;
  for (unsigned K = 0; K < W; ++K) {
    SmallVector<Value *, 8> Args;
    for (Value *Op : CB.args()) {
      Args.push_back(primal(Op));
      if (Op->getType()->isPointerTy()) {
        Value *S = AI.hasShadow(Op) ? shadowOf(Op, &CB) : nullptr;
        Args.push_back(
            shadowOrNull(S ? lane(B, S, K) : nullptr, Op->getType()));
      }
    }
    CallInst *AugCall = B.CreateCall(&Aug, Args);
    Value *Tape = nullptr, *LaneResult = nullptr;
    if (isa<StructType>(Aug.getReturnType())) {
      Tape = B.CreateExtractValue(AugCall, 0);
      LaneResult = B.CreateExtractValue(AugCall, 1);
    } else if (HasTape) {
      Tape = AugCall;
    } else if (augmentedReturnsPrimal(Callee, Aug)) {
      LaneResult = AugCall;
    }
    Tapes.push_back(Tape);
    if (K == 0)
      Result = LaneResult;
  }
  CustomTapes[&CB] = Tapes.front();
  CustomLaneTapes[&CB] = Tapes;
  // aug performs the primal call's work; keep the original call only for a
  // result aug does not give.
  if (Result) {
    GI->replaceAllUsesWith(Result);
    GI->eraseFromParent();
  } else if (Callee.getReturnType()->isVoidTy() || GI->use_empty()) {
    GI->eraseFromParent();
  }
}

void ReverseModeSynthesizer::reverseCustomCall(CallBase &CB,
                                               const CustomGradient &CG,
                                               IRBuilderBase &B) {
  BasicBlock *PB = CB.getParent();
  Function &Callee = *CB.getCalledFunction();
  if (R.Split)
    Boundary.NotReplayable.push_back("it calls the registered reverse of '" +
                                     Callee.getName().str() +
                                     "', which may consume its own tape");
  Type *RetTy = Callee.getReturnType();
  Value *Seed = nullptr;
  if (RetTy->isFPOrFPVectorTy())
    Seed = AI.isActive(&CB) ? takeAdjoint(&CB, B)
                            : Constant::getNullValue(batchTy(RetTy));
  // One reverse per lane (batch mode runs aug once per lane too).
  SmallVector<CallInst *, 4> Results;
  auto LaneTapes = CustomLaneTapes.lookup(&CB);
  for (unsigned L = 0; L < W; ++L) {
    SmallVector<Value *, 8> Args;
    for (Value *Op : CB.args()) {
      Args.push_back(lookup(primal(Op), PB, B));
      if (Op->getType()->isPointerTy()) {
        Value *S = AI.hasShadow(Op) ? shadowOf(Op, &CB) : nullptr;
        Args.push_back(shadowOrNull(S ? lane(B, lookup(S, PB, B), L) : nullptr,
                                    Op->getType()));
      }
    }
    if (Seed)
      Args.push_back(lane(B, Seed, L));
    if (L < LaneTapes.size() && LaneTapes[L])
      Args.push_back(lookup(LaneTapes[L], PB, B));
    Results.push_back(B.CreateCall(CG.Reverse, Args));
  }
  unsigned NumFP = count_if(Callee.getFunctionType()->params(),
                            [](Type *T) { return T->isFPOrFPVectorTy(); });
  unsigned K = 0;
  for (Value *Op : CB.args()) {
    if (!Op->getType()->isFPOrFPVectorTy())
      continue;
    Value *Adj = lanes(B, Op->getType(), [&](unsigned L) -> Value * {
      return NumFP == 1 ? (Value *)Results[L]
                        : B.CreateExtractValue(Results[L], K);
    });
    addAdjoint(Op, Adj, B);
    ++K;
  }
}

/// A call left in place by preparation (recursion, or a callee too large
/// to inline) runs the callee's augmented forward, which returns the
/// callee's tape, in the forward sweep...
void ReverseModeSynthesizer::augmentDefinedCall(CallBase &CB) {
  DiffRequest CR = calleeRequest(CB);
  if (hasNoDerivative(CR))
    return;
  CalleeSplit CS = CalleeSplitFor(CR);
  if (!CS.Augmented) {
    Failed = true;
    return;
  }
  DerivativeSignature Sig = computeSignature(CR);
  auto *GI = cast<CallBase>(primal(&CB));
  IRBuilder<> B(GI);
  SmallVector<Value *, 8> Args;
  for (unsigned I = 0; I < CB.arg_size(); ++I) {
    Value *Op = CB.getArgOperand(I);
    Args.push_back(primal(Op));
    if (Sig.ShadowArg[I] >= 0)
      Args.push_back(shadowOf(Op, &CB));
  }
  if (Failed)
    return;
  CallInst *Call = B.CreateCall(CS.Augmented, Args);
  Call->setDebugLoc(GI->getDebugLoc());
  Value *Tape = Call;
  if (isa<StructType>(Call->getType())) {
    Tape = B.CreateExtractValue(Call, 0, CB.getName() + ".tape");
    GI->replaceAllUsesWith(B.CreateExtractValue(Call, 1));
  }
  GI->eraseFromParent();
  CalleeTapes[&CB] = Tape;
}

/// ...and its reverse, which consumes that tape, in the reverse sweep.
void ReverseModeSynthesizer::reverseDefinedCall(CallBase &CB,
                                                IRBuilderBase &B) {
  DiffRequest CR = calleeRequest(CB);
  if (hasNoDerivative(CR))
    return;
  Value *Tape = CalleeTapes.lookup(&CB);
  CalleeSplit CSplit = CalleeSplitFor(CR);
  if (!Tape || !CSplit.Reverse) {
    Failed = true;
    return;
  }
  if (R.Split)
    Boundary.NotReplayable.push_back("its reverse sweep runs the reverse of '" +
                                     sourceName(*CB.getCalledFunction()) +
                                     "', which consumes that call's own tape");
  BasicBlock *PB = CB.getParent();
  DerivativeSignature CS = computeSignature(CR);
  SmallVector<Value *, 8> Args;
  for (unsigned I = 0; I < CB.arg_size(); ++I) {
    Value *Op = CB.getArgOperand(I);
    Args.push_back(lookup(primal(Op), PB, B));
    if (CS.ShadowArg[I] >= 0)
      if (Value *S = shadowOf(Op, &CB))
        Args.push_back(lookup(S, PB, B));
  }
  if (CS.SeedArg >= 0)
    Args.push_back(AI.isActive(&CB) ? takeAdjoint(&CB, B)
                                    : Constant::getNullValue(CB.getType()));
  Args.push_back(lookup(Tape, PB, B));
  if (Failed)
    return;
  CallInst *Res = B.CreateCall(CSplit.Reverse, Args);
  unsigned K = 0;
  for (unsigned I = 0; I < CB.arg_size(); ++I) {
    if (CR.Args[I] != Activity::Active)
      continue;
    Value *Adj =
        CS.Results.size() == 1 ? (Value *)Res : B.CreateExtractValue(Res, K);
    addAdjoint(CB.getArgOperand(I),
               fromResult(B, Adj, CB.getArgOperand(I)->getType(), W), B);
    ++K;
  }
}

void ReverseModeSynthesizer::reverseRule(Instruction &PI, IRBuilderBase &B) {
  const DerivativeRule *Rule = nullptr;
  if (auto *CB = dyn_cast<CallBase>(&PI))
    Rule = ruleFor(*CB);
  else
    Rule = findInstructionRule(PI.getOpcode());
  assert(Rule && "no rule");
  BasicBlock *PB = PI.getParent();
  Value *D = takeAdjoint(&PI, B);
  SmallVector<Value *, 3> Ops(PI.operands().begin(),
                              PI.operands().begin() + Rule->NumOperands);
  auto Lookup = [&](Value *PV) { return lookup(primal(PV), PB, B); };
  PartialEmitter E(B, Ops, &PI, Lookup);
  // A zero adjoint must contribute exactly zero even where the partial is
  // infinite or NaN: code the optimiser speculated (a select between
  // sqrt(x) and something else at x < 0, or x * inf) sends a zero adjoint
  // to the side that was not chosen. Sums have constant partials.
  unsigned Op = PI.getOpcode();
  bool FinitePartials = Op == Instruction::FAdd || Op == Instruction::FSub ||
                        Op == Instruction::FNeg;
  // In batch mode a scalar's lanes are one vector: the partial is splat
  // and one instruction serves all lanes. Other types go lane by lane.
  Type *T = PI.getType();
  bool Whole = W == 1 || T->isFloatingPointTy();
  SmallVector<Value *, 8> IsZero(Whole ? 1 : W, nullptr);
  auto Scale = [&](Value *Partial, Value *DL, unsigned K) {
    Value *Delta = E.mul(Partial, DL);
    if (!FinitePartials && !isa<Constant>(Partial)) {
      if (!IsZero[K])
        IsZero[K] = B.CreateFCmpOEQ(DL, Constant::getNullValue(DL->getType()));
      Delta = B.CreateSelect(IsZero[K], Constant::getNullValue(DL->getType()),
                             Delta);
    }
    return Delta;
  };
  for (unsigned I = 0; I < Rule->NumOperands; ++I) {
    if (!AI.isActive(Ops[I]))
      continue;
    Value *Partial = Rule->Partial(E, I);
    if (!Partial)
      continue;
    Value *Delta = Whole ? Scale(splatLanes(B, Partial, W), D, 0)
                         : lanes(B, T, [&](unsigned K) {
                             return Scale(Partial, lane(B, D, K), K);
                           });
    addAdjoint(Ops[I], Delta, B);
  }
}

void ReverseModeSynthesizer::reverseLoad(LoadInst &LoadI, IRBuilderBase &B) {
  Value *D = takeAdjoint(&LoadI, B);
  Value *S = shadowOf(LoadI.getPointerOperand(), &LoadI);
  if (!S)
    return;
  S = lookup(S, LoadI.getParent(), B);
  // Through a pointer that may be constant, the adjoint goes to a scratch
  // slot where the shadow marks it so.
  Value *Ptr = LoadI.getPointerOperand();
  Value *GP = RA.mayBeConstant(Ptr) ? lookup(primal(Ptr), LoadI.getParent(), B)
                                    : nullptr;
  for (unsigned K = 0; K < W; ++K) {
    Value *SK = lane(B, S, K);
    if (GP)
      SK = guardedShadow(B, SK, GP, LoadI.getType());
    if (isSharedMemory(Ptr)) {
      atomicAddAdjoint(B, SK, lane(B, D, K), LoadI.getAlign(), &LoadI);
      continue;
    }
    Value *Old = B.CreateAlignedLoad(LoadI.getType(), SK, LoadI.getAlign());
    B.CreateAlignedStore(addValues(B, Old, lane(B, D, K)), SK,
                         LoadI.getAlign());
  }
}

void ReverseModeSynthesizer::reverseStore(StoreInst &SI, IRBuilderBase &B) {
  Value *Val = SI.getValueOperand();
  Type *T = Val->getType();
  // Bytes an integer load moved here (ReverseByteCopies.cpp).
  if (auto *From = dyn_cast<LoadInst>(Val); From && isCopyLoad(*From)) {
    if (AI.hasShadow(SI.getPointerOperand()))
      reverseCopyStore(SI, *From, B);
    return;
  }
  if (!AI.hasShadow(SI.getPointerOperand()) ||
      !(T->isFPOrFPVectorTy() || isa<StructType>(T) || isa<ArrayType>(T)))
    return;
  if (!T->isFPOrFPVectorTy() && !AI.isActive(Val) && !AI.isVaried(Val))
    return; // Aggregates with non-float parts that carry nothing.
  Value *S = shadowOf(SI.getPointerOperand(), &SI);
  if (!S)
    return;
  S = lookup(S, SI.getParent(), B);
  // Through a pointer that may be constant, the adjoint is zero where the
  // shadow marks it so, and the constant memory is left alone.
  Value *Ptr = SI.getPointerOperand();
  Value *GP =
      RA.mayBeConstant(Ptr) ? lookup(primal(Ptr), SI.getParent(), B) : nullptr;
  // The store overwrote the memory: its adjoint moves to the stored value.
  Value *D = lanes(B, T, [&](unsigned K) {
    Value *SK = lane(B, S, K);
    Value *DK = B.CreateAlignedLoad(T, SK, SI.getAlign());
    if (GP) {
      DK = B.CreateSelect(isConstantShadow(B, SK, GP),
                          Constant::getNullValue(T), DK);
      SK = guardedShadow(B, SK, GP, T);
    }
    B.CreateAlignedStore(Constant::getNullValue(T), SK, SI.getAlign());
    return DK;
  });
  addAdjoint(Val, D, B);
}

void ReverseModeSynthesizer::reverseMemIntrinsic(MemIntrinsic &MI,
                                                 IRBuilderBase &B) {
  if (!AI.hasShadow(MI.getDest()))
    return;
  if (auto *MT = dyn_cast<MemTransferInst>(&MI))
    if (copiesOnlyPointers(*MT))
      return; // pointers: no adjoint (their shadows were copied forward)
  BasicBlock *PB = MI.getParent();
  Value *Dst = shadowOf(MI.getDest(), &MI);
  if (!Dst)
    return;
  Dst = lookup(Dst, PB, B);
  Value *Len = lookup(primal(MI.getLength()), PB, B);
  auto *MT = dyn_cast<MemTransferInst>(&MI);
  if (!MT || !AI.hasShadow(MT->getSource())) {
    // The bytes were overwritten with constants: their adjoint is dropped.
    for (unsigned K = 0; K < W; ++K)
      B.CreateMemSet(lane(B, Dst, K), B.getInt8(0), Len, MI.getDestAlign());
    return;
  }
  // Only the floating-point parts carry adjoints: pointers' and integers'
  // shadows are left alone (ReverseByteCopies.cpp).
  auto *ConstLen = dyn_cast<ConstantInt>(MI.getLength());
  ByteLayout L;
  if (!copyLayout(MT->getDest(), MT->getSource(),
                  ConstLen ? ConstLen->getZExtValue() : 0, &MI, L))
    return;
  auto FP = partsOf(L, [](Type *T) { return T->isFloatingPointTy(); });
  Value *Src = shadowOf(MT->getSource(), &MI);
  if (FP.empty() || !Src)
    return;
  Src = lookup(Src, PB, B);
  Function *Fn =
      getPartsFn(module(), FP, L.Period,
                 isa<MemMoveInst>(MT) ? PartsOp::AccumulateOverlapping
                                      : PartsOp::Accumulate);
  for (unsigned K = 0; K < W; ++K)
    B.CreateCall(Fn, {lane(B, Dst, K), lane(B, Src, K),
                      B.CreateZExtOrTrunc(Len, B.getInt64Ty())});
}

} // namespace tapestry
