//===- ReverseModeSynthesizer.cpp - Reverse-mode derivatives --------------===//
//
// The one-shot reverse-mode derivative (see the header): the forward sweep
// with its shadows, the adjoint slots, the adjoint of each instruction (an
// llvm::InstVisitor over each primal block in reverse order) and the
// reversed control flow. Calls are reversed in ReverseCalls.cpp; what the
// reverse sweep reads of the forward sweep comes from ReverseValueCache.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/ReverseModeSynthesizer.h"

#include "Analysis/TapeAnalysis.h"
#include "Analysis/TypeAnalysis.h"
#include "Core/AllocationFunctions.h"
#include "Core/Diagnostics.h"
#include "Synthesis/DerivativeRules.h"
#include "Synthesis/FreedShadows.h"
#include "Synthesis/InlineHelpers.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

using namespace llvm;

#define DEBUG_TYPE "tapestry"

STATISTIC(NumReverseDerivatives, "Reverse-mode derivatives synthesised");

namespace tapestry {

ReverseModeSynthesizer::ReverseModeSynthesizer(const SynthesisInput &In)
    : SynthesizerBase(In), DT(In.DT), LI(In.LI), SE(In.SE) {}

Function *ReverseModeSynthesizer::run() {
  LLVM_DEBUG(dbgs() << "tapestry: reverse mode of '" << R.Fn->getName()
                    << "', width " << W << (R.Split ? ", split" : "")
                    << ", from the prepared primal:\n"
                    << P);
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
  // The reverse sweep walks loops back by their counters; a cycle entered
  // in its middle (a goto into a loop) is no loop LoopInfo knows, and its
  // reverse would read records it never wrote.
  ReversePostOrderTraversal<const Function *> RPOT(&P);
  if (containsIrreducibleCFG<const BasicBlock *>(RPOT, LI)) {
    fail(nullptr, "its control flow has a cycle that is entered in the "
                  "middle (a goto into a loop, or two loops jumping into "
                  "each other), which the reverse sweep cannot walk back; "
                  "give the loop a single entry (move the code the goto "
                  "skips to into a condition inside the loop)");
    return nullptr;
  }
  createFunction();
  Cache = std::make_unique<ReverseValueCache>(ReverseCacheInput{
      *R.Fn, P, *G, VMap, RetBlock, Tape, LoopIVs, DT, LI, SE, W, Shadows});
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
  planLoopSkips();

  // The forward sweep ends where the reverse sweep starts by seeding the
  // return's adjoint.
  auto *GRet = cast<ReturnInst>(primal(PrimalRet));
  Boundary.ReverseStart =
      BasicBlock::Create(C, "rev.start", G, RevBlocks[&P.front()]);
  BranchInst::Create(Boundary.ReverseStart, GRet);
  GRet->eraseFromParent();
  IRBuilder<> B(Boundary.ReverseStart);
  startLoopSkips(B);
  if (Value *RV = PrimalRet->getReturnValue()) {
    ReturnValue = primal(RV);
    Boundary.PrimalReturn = ReturnValue;
    if (R.returnsShadow()) {
      if (unshadowedReturn(RV))
        failUnshadowedReturn(PrimalRet);
      else
        Boundary.ShadowReturn = shadowOf(RV, PrimalRet);
    } else if (R.ReturnActive && AI.isActive(RV)) {
      addAdjoint(RV, G->getArg(Sig.SeedArg), B);
    }
  }
  B.CreateBr(RevBlocks[RetBlock]);

  for (BasicBlock &PB : P)
    buildReverseBlock(PB);
  emitFinalReturn();
  finishLoopSkips();
  Cache->materialize(FinalBlock, Boundary.RecordStates, Boundary.RecordFrees);
  if (Failed) {
    G->eraseFromParent();
    return nullptr;
  }
  for (Instruction *GI : dropUnneededPrimalWrites())
    Cache->forget(GI);
  for (unsigned I = 0; I < P.arg_size(); ++I)
    if (Sig.ShadowArg[I] >= 0)
      Boundary.ShadowValues.insert(G->getArg(Sig.ShadowArg[I]));
  for (auto &[PV, S] : Shadows) {
    Boundary.ShadowValues.insert(S);
    if (Value *GV = VMap.lookup(PV))
      Boundary.PrimalOfShadow[S] = GV;
  }
  relaxAccessAlignments();
  ++NumReverseDerivatives;
  LLVM_DEBUG(dbgs() << "tapestry: reverse derivative:\n" << *G);
  return G;
}

//===----------------------------------------------------------------------===//
// Forward sweep
//===----------------------------------------------------------------------===//

/// True if recomputing \p V in the reverse sweep may recompute a freeze:
/// one is among the operations it is computed by, up to the values the
/// cache keeps or reloads as they are (phis, loads, calls); a deep
/// expression is taken to.
static bool mayRecomputeFreeze(const Value *V, unsigned Depth = 0) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || isa<PHINode>(I) || isa<LoadInst>(I) || isa<CallBase>(I))
    return false;
  if (isa<FreezeInst>(I) || Depth >= 6)
    return true;
  return any_of(I->operands(), [&](const Value *Op) {
    return mayRecomputeFreeze(Op, Depth + 1);
  });
}

std::optional<std::pair<Value *, unsigned>>
ReverseModeSynthesizer::predecessorByBranch(BasicBlock &PB,
                                            ArrayRef<BasicBlock *> Preds) {
  // PB's immediate dominator D branches on C, and each of PB's two
  // predecessors is reached only through one of D's edges (or is D, by its
  // edge into PB): the latest branch at D then says which predecessor PB
  // is entered from, since a path from the entry into D that took the other
  // edge last would reach that predecessor without the edge that dominates
  // it. In the same loop as PB (and C computed no deeper), the reverse of PB
  // reads C of the same iteration: a loop-invariant guard (the `n > 0` in
  // front of an inner loop) is then free, where the index cost a record.
  DomTreeNode *Node = DT.getNode(&PB);
  if (Preds.size() != 2 || !Node || !Node->getIDom())
    return std::nullopt;
  BasicBlock *D = Node->getIDom()->getBlock();
  auto *BI = dyn_cast<BranchInst>(D->getTerminator());
  if (!BI || !BI->isConditional() ||
      BI->getSuccessor(0) == BI->getSuccessor(1) ||
      LI.getLoopFor(D) != LI.getLoopFor(&PB))
    return std::nullopt;
  Value *C = BI->getCondition();
  // The cache may recompute a freeze, also inside the condition (`xor
  // (freeze c), true`: review44 F5), and two freezes of poison can differ:
  // the reverse would leave PB by the other way.
  if (mayRecomputeFreeze(C))
    return std::nullopt;
  if (auto *CI = dyn_cast<Instruction>(C)) {
    const Loop *CL = LI.getLoopFor(CI->getParent());
    if (CL && !CL->contains(D))
      return std::nullopt;
  }
  auto SideOf = [&](BasicBlock *Pred) -> int {
    int Side = -1;
    for (unsigned S = 0; S < 2; ++S) {
      BasicBlock *Succ = BI->getSuccessor(S);
      bool Through =
          Pred == D
              ? Succ == &PB
              : Succ != &PB && DT.dominates(BasicBlockEdge(D, Succ), Pred);
      if (!Through)
        continue;
      if (Side >= 0)
        return -1;
      Side = S;
    }
    return Side;
  };
  int Side0 = SideOf(Preds[0]), Side1 = SideOf(Preds[1]);
  if (Side0 < 0 || Side1 < 0 || Side0 == Side1)
    return std::nullopt;
  // Side 0 is the branch's true edge.
  return std::make_pair(C, Side0 == 0 ? 0u : 1u);
}

void ReverseModeSynthesizer::recordPredecessors() {
  for (BasicBlock &PB : P) {
    SmallSetVector<BasicBlock *, 4> Preds(pred_begin(&PB), pred_end(&PB));
    if (Preds.size() < 2 || LoopIVs.count(&PB))
      continue; // Loop headers with a counter need no record.
    if (auto Branch = predecessorByBranch(PB, Preds.getArrayRef())) {
      PredBranches[&PB] = *Branch;
      continue;
    }
    BasicBlock *GB = primal(&PB);
    IRBuilder<> B(GB, GB->begin());
    PHINode *Id = B.CreatePHI(B.getInt32Ty(), Preds.size(), "pred.id");
    for (BasicBlock *GPred : predecessors(GB)) {
      BasicBlock *PPred = Cache->primalBlock(GPred);
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
  augmentMPICalls(); // MPI (Synthesis/MPIRules.cpp)
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
      if (isDeferredFree(*CB, DT, LI)) {
        DeferredFrees[freedAllocation(*CB, DT, LI)] = CB;
        primal(CB)->eraseFromParent();
      }
  // Likewise stack memory: a variable-length array (and its shadow) popped
  // by llvm.stackrestore at the end of its scope would be reused while the
  // reverse sweep still reads and accumulates into it. The stack is
  // released when the derivative returns instead.
  for (Instruction &PI : instructions(P))
    if (auto *II = dyn_cast<IntrinsicInst>(&PI);
        II && II->getIntrinsicID() == Intrinsic::stackrestore)
      primal(II)->eraseFromParent();
  // Active values stored through pointers that may be constant at run time.
  for (Instruction &PI : instructions(P))
    if (auto *SI = dyn_cast<StoreInst>(&PI);
        SI && RA.mayBeConstant(SI->getPointerOperand()))
      checkStoreThroughConstant(*SI, shadowOf(SI->getPointerOperand(), SI));
    else if (auto *MT = dyn_cast<MemTransferInst>(&PI))
      checkCopyThroughConstant(*MT);
  // Pointers stored into shadowed memory have their shadows stored into the
  // shadow memory, so that loading the pointer back finds its shadow; so
  // do addresses stored as integers.
  for (Instruction &PI : instructions(P)) {
    // A constant pointer's shadow is itself (Analysis/RuntimeActivity.h).
    auto *SI = dyn_cast<StoreInst>(&PI);
    if (!SI)
      continue;
    IRBuilder<> B(primal(SI)->getNextNode());
    Value *SVal = addressShadowToStore(B, *SI);
    if (!SVal && !storesPointerShadow(*SI))
      continue;
    if (!SVal)
      SVal = shadowToStore(B, SI->getValueOperand(), SI);
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
        recordStoredPrimal(B, SK, primal(SI->getValueOperand()),
                           SI->getAlign());
      }
  }
  // strtod's end pointer: an offset into the text's shadow.
  for (Instruction &PI : instructions(P))
    if (auto *CB = dyn_cast<CallBase>(&PI))
      storeEndPointerShadow(*CB);
  // The same for pointers stored several at once (vectorised code).
  for (Instruction &PI : instructions(P))
    if (auto *II = dyn_cast<IntrinsicInst>(&PI);
        II &&
        (II->getIntrinsicID() == Intrinsic::masked_store ||
         II->getIntrinsicID() == Intrinsic::masked_scatter) &&
        II->getArgOperand(0)->getType()->isPtrOrPtrVectorTy()) {
      IRBuilder<> B(primal(II)->getNextNode());
      storePointerShadows(B, *II);
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
    if (!CB || !isDeallocationCall(*CB) || isDeferredFree(*CB, DT, LI) ||
        !AI.hasShadow(freedPointer(*CB)))
      continue;
    Value *S = shadowOf(freedPointer(*CB), CB);
    if (!S)
      continue;
    IRBuilder<> B(primal(CB));
    Value *Kind = freedShadowKindOf(*CB, B);
    if (!Kind)
      continue;
    // Where a pointer that may be constant turns out so, its shadow is the
    // block itself, which the primal frees: nothing is listed (a null
    // shadow is not).
    Value *GP = RA.mayBeConstant(freedPointer(*CB)) ? primal(freedPointer(*CB))
                                                    : nullptr;
    Value *Bytes = freedShadowBytesOf(*CB, B);
    if (!isa<Constant>(Bytes))
      Bytes = primal(Bytes);
    // The block's size as a sized operator delete states it: seeds left in
    // a replaced output's shadow are found within it.
    Value *Exact = B.getInt64(0);
    if (Value *Stated = sizedDeallocationBytes(*CB);
        Stated &&
        !(isa<ConstantInt>(Bytes) && cast<ConstantInt>(Bytes)->isZero()))
      Exact = isa<Constant>(Stated) ? Stated : primal(Stated);
    for (unsigned K = 0; K < W; ++K) {
      Value *SK = lane(B, S, K);
      if (GP)
        SK = B.CreateSelect(isConstantShadow(B, SK, GP),
                            Constant::getNullValue(SK->getType()), SK);
      B.CreateCall(getFreedShadowPushFn(module(), R.FreedListDepth),
                   {SK, Kind, Bytes, Exact});
    }
  }
  // Active values stored where no shadow can receive their adjoint would
  // lose it silently.
  for (Instruction &PI : instructions(P))
    if (auto *SI = dyn_cast<StoreInst>(&PI)) {
      if (losesDerivative(*SI))
        reportLostStore(*SI);
    } else if (auto *MT = dyn_cast<MemTransferInst>(&PI)) {
      if (losesDerivative(*MT))
        reportLostStore(*MT, /*Copied=*/true);
    }
}

//===----------------------------------------------------------------------===//
// Adjoints
//===----------------------------------------------------------------------===//

AllocaInst *ReverseModeSynthesizer::entryAlloca(Type *T, const Twine &Name) {
  return Cache->entryAlloca(T, Name);
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

/// A + B for floating-point scalars, vectors and aggregates of them; an
/// aggregate's integer members carry no derivative and stay as in A.
static Value *addValues(IRBuilderBase &B, Value *X, Value *Y) {
  Type *T = X->getType();
  if (T->isFPOrFPVectorTy())
    return B.CreateFAdd(X, Y);
  if (T->isIntOrIntVectorTy())
    return X;
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

Value *ReverseModeSynthesizer::lookup(Value *GV, BasicBlock *PB,
                                      IRBuilderBase &B) {
  return Cache->lookup(GV, PB, B);
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
  recordLoopChoices(PB, B);
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
    Cache->enterLoopsBackwards(Pred, &PB, EB);
    if (IsHeader)
      Cache->addHeaderExit(&PB, EB.GetInsertBlock());
    branchBack(Pred, PB, EB);
  };
  LLVMContext &C = G->getContext();
  if (IsHeader && LoopIVs.count(&PB)) {
    // Iteration K of the loop was entered from the latch of iteration K-1,
    // or from the preheader when K is 0.
    AllocaInst *Counter = Cache->reverseCounter(L);
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
  Value *Id;
  if (auto It = PredBranches.find(&PB); It != PredBranches.end()) {
    auto [Cond, IfTrue] = It->second;
    Id = B.CreateSelect(lookup(primal(Cond), &PB, B), B.getInt32(IfTrue),
                        B.getInt32(1 - IfTrue), "pred.id");
  } else {
    Id = lookup(PredIds[&PB], &PB, B);
  }
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

// freeze passes its operand on, whatever its type: a struct returned by a
// call is often frozen at -O2 and above before its fields are extracted,
// and the partial rule (a floating-point 1) has no form for a struct.
// Pointers have shadows, not adjoints (ShadowMemory.cpp).
void ReverseModeSynthesizer::visitFreezeInst(FreezeInst &I) {
  if (!AI.isActive(&I) || I.getType()->isPtrOrPtrVectorTy())
    return;
  IRBuilderBase &B = *Builder;
  addAdjoint(I.getOperand(0), takeAdjoint(&I, B), B);
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

/// A constant partial with undef or poison lanes (from a vector constant
/// the optimiser left undefined in lanes whose results nothing uses, as the
/// SLP vectoriser does): those lanes' adjoints are zero, so their partial is
/// zero, instead of a poison that the reverse of a shuffle would sum into
/// the lanes that are used.
static Value *zeroUndefinedLanes(Value *Partial) {
  auto *C = dyn_cast<Constant>(Partial);
  auto *VT = C ? dyn_cast<FixedVectorType>(C->getType()) : nullptr;
  if (!VT || !C->containsUndefOrPoisonElement())
    return Partial;
  SmallVector<Constant *, 8> Elts;
  for (unsigned I = 0, N = VT->getNumElements(); I < N; ++I) {
    Constant *E = C->getAggregateElement(I);
    Elts.push_back(!E || isa<UndefValue>(E)
                       ? Constant::getNullValue(VT->getElementType())
                       : E);
  }
  return ConstantVector::get(Elts);
}

/// True if every element of \p C is a finite floating-point number: a
/// partial that times a zero adjoint is zero. (1 / C for a divisor C with a
/// zero lane, which defineUndefinedLanes gives lanes the primal left
/// undefined, is infinite there.)
static bool isFiniteConstant(const Constant *C) {
  if (auto *CF = dyn_cast<ConstantFP>(C))
    return CF->getValueAPF().isFinite();
  auto *VT = dyn_cast<FixedVectorType>(C->getType());
  if (!VT)
    return false;
  for (unsigned I = 0, N = VT->getNumElements(); I < N; ++I) {
    auto *E = dyn_cast_or_null<ConstantFP>(C->getAggregateElement(I));
    if (!E || !E->getValueAPF().isFinite())
      return false;
  }
  return true;
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
  PartialEmitter E(B, Ops, &PI, Lookup, /*AfterWholeBlock=*/true);
  // A zero adjoint must contribute exactly zero even where the partial is
  // infinite or NaN: code the optimiser speculated (a select between
  // sqrt(x) and something else at x < 0, or x * inf) sends a zero adjoint
  // to the side that was not chosen, and a vector lane the primal left
  // undefined (a divisor made zero there) gets a zero adjoint times an
  // infinite 1 / 0 (fuzz seed 21686: NaN gradients from SLP-vectorised
  // code). Only the NaN product is replaced: a
  // finite partial times a zero adjoint is zero already, and the product
  // keeps its own derivative for an outer derivative of this code (forward
  // or reverse over reverse), where a constant 0 would lose the term
  // partial * d(adjoint). Sums have constant partials.
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
    auto *ConstantPartial = dyn_cast<Constant>(Partial);
    if (!FinitePartials &&
        !(ConstantPartial && isFiniteConstant(ConstantPartial))) {
      if (!IsZero[K])
        IsZero[K] = B.CreateFCmpOEQ(DL, Constant::getNullValue(DL->getType()));
      Value *Drop = B.CreateAnd(IsZero[K], B.CreateFCmpUNO(Delta, Delta));
      Delta =
          B.CreateSelect(Drop, Constant::getNullValue(DL->getType()), Delta);
    }
    return Delta;
  };
  for (unsigned I = 0; I < Rule->NumOperands; ++I) {
    if (!AI.isActive(Ops[I]))
      continue;
    Value *Partial = Rule->Partial(E, I);
    if (!Partial)
      continue;
    Partial = zeroUndefinedLanes(Partial);
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
  std::optional<SmallBitVector> Picked = lanesPicked(LoadI);
  for (unsigned K = 0; K < W; ++K) {
    Value *SK = lane(B, S, K);
    if (GP)
      SK = guardedShadow(B, SK, GP, LoadI.getType());
    if (isSharedMemory(Ptr)) {
      atomicAddAdjoint(B, SK, lane(B, D, K), LoadI.getAlign(), &LoadI);
      continue;
    }
    Value *Old = B.CreateAlignedLoad(LoadI.getType(), SK, LoadI.getAlign());
    Value *New = addValues(B, Old, lane(B, D, K));
    // Lanes the primal never picks may hold other data (the doubles of a
    // struct under a <16 x float> load): their shadow bytes stay as they
    // are, not added to as floats (a NaN bit pattern would change).
    if (Picked) {
      SmallVector<Constant *, 16> Mask;
      for (unsigned I = 0; I < Picked->size(); ++I)
        Mask.push_back(B.getInt1(Picked->test(I)));
      New = B.CreateSelect(ConstantVector::get(Mask), New, Old);
    }
    B.CreateAlignedStore(New, SK, LoadI.getAlign());
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
  // An integer's bits written over a double's (memcpy'd in from an
  // integer): the value there carries no derivative, so the adjoint of
  // what was there before is dropped, as for a stored constant.
  bool OverFloats = overwritesFloats(SI);
  if (!AI.hasShadow(SI.getPointerOperand()) ||
      !(T->isFPOrFPVectorTy() || isa<StructType>(T) || isa<ArrayType>(T) ||
        OverFloats))
    return;
  if (!T->isFPOrFPVectorTy() && !OverFloats && !AI.isActive(Val) &&
      !AI.isVaried(Val))
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
  if (!OverFloats)
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
  // A destination that may be constant has no adjoint where its shadow
  // marks it so (runtime activity): nothing is read or cleared there.
  Value *GD = RA.mayBeConstant(MI.getDest())
                  ? lookup(primal(MI.getDest()), PB, B)
                  : nullptr;
  auto *MT = dyn_cast<MemTransferInst>(&MI);
  if (!MT || !AI.hasShadow(MT->getSource())) {
    // The bytes were overwritten with constants: their adjoint is dropped.
    for (unsigned K = 0; K < W; ++K) {
      Value *DK = lane(B, Dst, K);
      B.CreateMemSet(DK, B.getInt8(0), bytesUnlessConstant(B, Len, DK, GD),
                     MI.getDestAlign());
    }
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
  // A source that may be constant takes no adjoint where its shadow marks
  // it so: the destination's adjoint is only dropped there.
  Value *GS = RA.mayBeConstant(MT->getSource())
                  ? lookup(primal(MT->getSource()), PB, B)
                  : nullptr;
  Function *Drop =
      GS ? getPartsFn(module(), FP, L.Period, PartsOp::Zero) : nullptr;
  for (unsigned K = 0; K < W; ++K) {
    Value *DK = lane(B, Dst, K), *SK = lane(B, Src, K);
    Value *N = B.CreateZExtOrTrunc(bytesUnlessConstant(B, Len, DK, GD),
                                   B.getInt64Ty());
    if (Drop) {
      B.CreateCall(Drop, {DK, DK, bytesIfConstant(B, N, SK, GS)});
      N = bytesUnlessConstant(B, N, SK, GS);
    }
    B.CreateCall(Fn, {DK, SK, N});
  }
}

} // namespace tapestry
