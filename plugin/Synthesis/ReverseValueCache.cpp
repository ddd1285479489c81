//===- ReverseValueCache.cpp - Forward values the reverse sweep reads -----===//
//
// How the reverse sweep gets each forward value it needs: directly,
// rebuilt, recomputed, reloaded or cached (see the header).
//
//===----------------------------------------------------------------------===//
#include "Synthesis/ReverseValueCache.h"

#include "Analysis/TapeAnalysis.h"
#include "Core/Diagnostics.h"
#include "Core/EnzymeOptions.h"
#include "Core/MathFunctions.h"
#include "Core/SourceTypes.h"
#include "Synthesis/InlineHelpers.h"
#include "Synthesis/TapeCache.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include <functional>
#include <numeric>
#include <optional>

using namespace llvm;

#define DEBUG_TYPE "tapestry"

STATISTIC(NumRebuilt, "Reverse-sweep values rebuilt from loop counters");
STATISTIC(NumRecomputed, "Reverse-sweep values recomputed");
STATISTIC(NumReloaded, "Reverse-sweep values reloaded from memory");
STATISTIC(NumCachedOnce, "Reverse-sweep values cached once");
STATISTIC(NumCachedPerIteration,
          "Reverse-sweep values cached per loop iteration");
STATISTIC(NumBytesCachedOnce, "Bytes of values cached once");
STATISTIC(NumBytesPerIteration,
          "Bytes of the per-iteration tape records (one iteration each)");

namespace tapestry {

ReverseValueCache::ReverseValueCache(const ReverseCacheInput &In)
    : UserFn(In.UserFn), G(In.Derivative), VMap(In.VMap), RetBlock(In.RetBlock),
      Tape(In.Tape), LoopIVs(In.LoopIVs), DT(In.DT), LI(In.LI), SE(In.SE),
      W(In.W), Shadows(In.Shadows),
      AllocaBlock(&In.Derivative.getEntryBlock()) {
  for (BasicBlock &PB : In.Primal) {
    PrimalBlocks[cast<BasicBlock>(VMap.lookup(&PB))] = &PB;
    for (Instruction &PI : PB)
      PrimalOf[cast<Instruction>(VMap.lookup(&PI))] = &PI;
  }
}

Value *ReverseValueCache::clone(Value *PV) const {
  if (isa<Constant>(PV) || isa<MetadataAsValue>(PV) || isa<InlineAsm>(PV))
    return PV;
  Value *GV = VMap.lookup(PV);
  assert(GV && "primal value has no clone");
  return GV;
}

AllocaInst *ReverseValueCache::entryAlloca(Type *T, const Twine &Name) {
  IRBuilder<> B(AllocaBlock, AllocaBlock->getFirstInsertionPt());
  return B.CreateAlloca(T, nullptr, Name);
}

BasicBlock *ReverseValueCache::primalBlockOf(Value *GV) const {
  auto *I = dyn_cast<Instruction>(GV);
  return I ? PrimalBlocks.lookup(I->getParent()) : nullptr;
}

Value *ReverseValueCache::lookup(Value *GV, BasicBlock *PB, IRBuilderBase &B) {
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
  if (Value *V = rebuildWidenedRecurrence(GV, PB, B))
    return V;
  if (Value *V = rebuildShadowRecurrence(GV, PB, B))
    return V;
  if (Value *V = recompute(GV, PB, B))
    return V;
  Loop *Shared = DefLoop;
  while (Shared && !Shared->contains(PB))
    Shared = Shared->getParentLoop();
  if (Shared) {
    LoopCache &LC = LoopCaches[Shared];
    iterationCounter(Shared);
    auto [It, New] = LC.Fields.insert({GV, LC.Fields.size()});
    unsigned Field = It->second;
    if (New) {
      ++NumCachedPerIteration;
      LLVM_DEBUG(dbgs() << "tapestry: tape: per iteration of loop "
                        << Shared->getHeader()->getName() << ": " << *GV
                        << "\n");
    }
    LoadInst *Ld = B.CreateLoad(GV->getType(), PoisonValue::get(B.getPtrTy()),
                                GV->getName() + ".tape");
    LC.Reads.push_back({Ld, Field});
    return Ld;
  }
  AllocaInst *&Slot = OnceSlots[GV];
  if (!Slot) {
    ++NumCachedOnce;
    OnceOrder.push_back(GV);
    NumBytesCachedOnce +=
        G.getParent()->getDataLayout().getTypeAllocSize(GV->getType());
    LLVM_DEBUG(dbgs() << "tapestry: tape: once: " << *GV << "\n");
    Slot = entryAlloca(GV->getType(), GV->getName() + ".cache");
    auto *GI = cast<Instruction>(GV);
    IRBuilder<> SB(GI->getParent(), isa<PHINode>(GI)
                                        ? GI->getParent()->getFirstNonPHIIt()
                                        : std::next(GI->getIterator()));
    SB.CreateStore(GV, Slot);
  }
  return B.CreateLoad(GV->getType(), Slot, GV->getName() + ".r");
}

Value *ReverseValueCache::recompute(Value *GV, BasicBlock *PB,
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
  // Floating-point arithmetic is recomputed when its operands cost no tape:
  // (p[i] - c[i]) from two reloads beats a store and a load of the tape.
  // A division or square root only where it would be recorded in every
  // iteration of a loop: cached once, it costs a store and a load of the
  // stack (bundle adjustment's Rodrigues rotation was 3% slower
  // recomputing them).
  Cheap |= isCheapFloatOp(I) && (!isCostlyFloatOp(I) || isRecorded(I, PB)) &&
           all_of(I->operands(), [&](Value *Op) { return isFree(Op, PB, 0); });
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
  if (isa<LoadInst>(C))
    ++NumReloaded;
  else
    ++NumRecomputed;
  if (Instruction *PI = PrimalOf.lookup(GV))
    (isa<LoadInst>(C) ? ReloadedPrimal : RecomputedPrimal).insert(PI);
  LLVM_DEBUG(dbgs() << "tapestry: tape: "
                    << (isa<LoadInst>(C) ? "reloaded: " : "recomputed: ") << *GV
                    << "\n");
  return C;
}

bool ReverseValueCache::isCheapFloatOp(const Instruction *I) {
  if (!PrimalOf.count(I))
    return false;
  // A comparison of doubles, and a choice between two values (the guards
  // derivatives of sqrt, fabs or a division by zero compute).
  if (isa<FCmpInst>(I) || isa<SelectInst>(I))
    return true;
  if (!I->getType()->isFPOrFPVectorTy())
    return false;
  if (isa<UnaryOperator>(I))
    return I->getOpcode() == Instruction::FNeg;
  if (auto *CB = dyn_cast<CallBase>(I)) {
    // A few math functions cost about what a division does: sqrt (the
    // library's sets only errno, which the reverse sweep sets again alike),
    // fused multiply-adds, absolute values and their kin.
    const MathFunction *M = findMathFunction(*CB);
    if (!M || mathWritesMemory(*CB))
      return false;
    StringRef Name = M->Name;
    return Name == "sqrt" || Name == "fma" || Name == "fmuladd" ||
           Name == "fabs" || Name == "copysign" || Name == "fmax" ||
           Name == "fmin";
  }
  if (!isa<BinaryOperator>(I))
    return false;
  unsigned Op = I->getOpcode();
  return Op == Instruction::FAdd || Op == Instruction::FSub ||
         Op == Instruction::FMul || Op == Instruction::FDiv;
}

bool ReverseValueCache::isCostlyFloatOp(const Instruction *I) {
  if (I->getOpcode() == Instruction::FDiv)
    return true;
  const auto *CB = dyn_cast<CallBase>(I);
  const MathFunction *M = CB ? findMathFunction(*CB) : nullptr;
  return M && StringRef(M->Name) == "sqrt";
}

bool ReverseValueCache::isCheapFromRecords(const Instruction *I) {
  // A division or square root costs more than the record field it would
  // save where the loop keeps records anyway (an LSTM's 1 / (1 + exp(-x))
  // from its taped exponential was 6% slower); where it spares the loop its
  // records altogether (isFree), it is worth it.
  return !isCostlyFloatOp(I) && isCheapFloatOp(I);
}

bool ReverseValueCache::isRecorded(Instruction *I, BasicBlock *PB) {
  const Loop *L = LI.getLoopFor(primalBlockOf(I));
  while (L && !L->contains(PB))
    L = L->getParentLoop();
  return L != nullptr;
}

bool ReverseValueCache::isFree(Value *GV, BasicBlock *PB, unsigned Depth) {
  // An answer found with at least as much depth left holds; so does a "no"
  // found with no more left. Without this, a body whose values share
  // operands (x * x, reused differences) is explored once per path.
  FreeAnswer &A = FreeAnswers[{GV, PB}];
  if ((int)Depth <= A.YesDepth || Depth >= A.NoDepth)
    return (int)Depth <= A.YesDepth;
  bool Free = isFreeUncached(GV, PB, Depth);
  // The reference may have moved while the operands were explored.
  FreeAnswer &B = FreeAnswers[{GV, PB}];
  if (Free)
    B.YesDepth = std::max<int>(B.YesDepth, Depth);
  else
    B.NoDepth = std::min<unsigned>(B.NoDepth, Depth);
  return Free;
}

bool ReverseValueCache::isFreeUncached(Value *GV, BasicBlock *PB,
                                       unsigned Depth) {
  // Bounds the work the reverse repeats for one value: a chain of this many
  // operations (a difference of two reloads, squared, summed, its square
  // root and reciprocal is 7).
  constexpr unsigned MaxDepth = 10;
  BasicBlock *Def = primalBlockOf(GV);
  if (!Def)
    return true; // Arguments, constants.
  Loop *DefLoop = LI.getLoopFor(Def);
  if (!DefLoop && DT.dominates(Def, RetBlock))
    return true;
  Instruction *PI = PrimalOf.lookup(GV);
  if (!PI)
    return false;
  if (DefLoop && DefLoop->getHeader() == Def && DefLoop->contains(PB) &&
      LoopIVs.lookup(Def) == PI)
    return true;
  if (Depth >= MaxDepth)
    return false;
  // An affine recurrence is rebuilt from the reverse counter.
  if (auto *Phi = dyn_cast<PHINode>(PI))
    return SE.isSCEVable(Phi->getType()) &&
           isa<SCEVAddRecExpr>(SE.getSCEV(Phi)) &&
           isFreeSCEV(SE.getSCEV(Phi), PB, Depth + 1);
  auto *I = cast<Instruction>(GV);
  if (auto *Load = dyn_cast<LoadInst>(I))
    return Tape.Reloadable.count(cast<LoadInst>(PI)) &&
           isFree(Load->getPointerOperand(), PB, Depth + 1);
  bool Cheap = isa<GetElementPtrInst>(I) || isa<CastInst>(I) ||
               isa<ICmpInst>(I) || isa<FreezeInst>(I) ||
               (isa<BinaryOperator>(I) && I->getType()->isIntOrIntVectorTy()) ||
               isCheapFloatOp(I);
  return Cheap && all_of(I->operands(),
                         [&](Value *Op) { return isFree(Op, PB, Depth + 1); });
}

bool ReverseValueCache::isFreeSCEV(const SCEV *S, BasicBlock *PB,
                                   unsigned Depth) {
  if (isa<SCEVConstant>(S))
    return true;
  if (auto *U = dyn_cast<SCEVUnknown>(S)) {
    Value *V = U->getValue();
    if (isa<Constant>(V) || isa<Argument>(V))
      return true;
    auto *I = dyn_cast<Instruction>(V);
    return I && DT.dominates(I->getParent(), PB) && isFree(clone(V), PB, Depth);
  }
  if (auto *Cast = dyn_cast<SCEVCastExpr>(S))
    return isFreeSCEV(Cast->getOperand(), PB, Depth);
  if (isa<SCEVAddExpr>(S) || isa<SCEVMulExpr>(S))
    return all_of(cast<SCEVNAryExpr>(S)->operands(),
                  [&](const SCEV *Op) { return isFreeSCEV(Op, PB, Depth); });
  auto *AR = dyn_cast<SCEVAddRecExpr>(S);
  if (const SCEV *Exit = AR ? exitValue(AR, PB) : nullptr)
    return isFreeSCEV(Exit, PB, Depth);
  return AR && AR->getNumOperands() <= 3 && AR->getLoop()->contains(PB) &&
         LoopIVs.count(AR->getLoop()->getHeader()) &&
         all_of(AR->operands(),
                [&](const SCEV *Op) { return isFreeSCEV(Op, PB, Depth); });
}

const SCEV *ReverseValueCache::exitValue(const SCEVAddRecExpr *AR,
                                         BasicBlock *PB) {
  if (AR->getLoop()->contains(PB))
    return nullptr;
  const SCEV *AtScope = SE.getSCEVAtScope(AR, LI.getLoopFor(PB));
  if (AtScope == AR || isa<SCEVCouldNotCompute>(AtScope))
    return nullptr;
  return AtScope;
}

Value *ReverseValueCache::rebuildRecurrence(Value *GV, BasicBlock *PB,
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
  if (V) {
    V->setName(GV->getName() + ".re");
    ++NumRebuilt;
    RecomputedPrimal.insert(Phi);
  }
  return V;
}

Value *ReverseValueCache::rebuildWidenedRecurrence(Value *GV, BasicBlock *PB,
                                                   IRBuilderBase &B) {
  auto *Ext = dyn_cast_or_null<CastInst>(PrimalOf.lookup(GV));
  if (!Ext || (!isa<SExtInst>(Ext) && !isa<ZExtInst>(Ext)) ||
      !SE.isSCEVable(Ext->getType()))
    return nullptr;
  auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Ext));
  if (!AR || !AR->getLoop()->contains(PB))
    return nullptr;
  Value *V = expandSCEV(AR, PB, B);
  if (!V || V->getType() != Ext->getType())
    return nullptr;
  V->setName(GV->getName() + ".re");
  ++NumRebuilt;
  RecomputedPrimal.insert(Ext);
  return V;
}

const PHINode *ReverseValueCache::primalPhiOfShadow(const PHINode *SP) {
  if (!ShadowPhisBuilt) {
    ShadowPhisBuilt = true;
    for (auto &[PV, SV] : Shadows)
      if (auto *Phi = dyn_cast<PHINode>(PV))
        if (auto *Sh = dyn_cast_or_null<PHINode>(SV))
          ShadowPhis[Sh] = Phi;
  }
  return ShadowPhis.lookup(SP);
}

Value *ReverseValueCache::expandOffset(const SCEVAddRecExpr *AR, BasicBlock *PB,
                                       IRBuilderBase &B) {
  const SCEV *Step = AR->getOperand(1);
  if (!Step->getType()->isIntegerTy())
    return nullptr;
  SmallVector<const SCEV *, 3> Ops(AR->operands());
  Ops[0] = SE.getZero(Step->getType());
  return expandSCEV(SE.getAddRecExpr(Ops, AR->getLoop(), SCEV::FlagAnyWrap), PB,
                    B);
}

Value *ReverseValueCache::rebuildShadowRecurrence(Value *GV, BasicBlock *PB,
                                                  IRBuilderBase &B) {
  auto *SP = dyn_cast<PHINode>(GV);
  if (!SP || PrimalOf.count(SP) || !SP->getType()->isPointerTy())
    return nullptr;
  const PHINode *Phi = primalPhiOfShadow(SP);
  if (!Phi || !Phi->getType()->isPointerTy())
    return nullptr;
  auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(const_cast<PHINode *>(Phi)));
  if (!AR || AR->getLoop()->getHeader() != Phi->getParent())
    return nullptr;
  // The shadow the walk starts from: the shadow phi's value entering the
  // loop, from its one preheader.
  BasicBlock *Pre = AR->getLoop()->getLoopPreheader();
  auto *GPre = Pre ? dyn_cast_or_null<BasicBlock>(VMap.lookup(Pre)) : nullptr;
  if (!GPre || SP->getBasicBlockIndex(GPre) < 0)
    return nullptr;
  Value *Off = expandOffset(AR, PB, B);
  if (!Off)
    return nullptr;
  Value *Start = lookup(SP->getIncomingValueForBlock(GPre), PB, B);
  ++NumRebuilt;
  return B.CreateGEP(B.getInt8Ty(), Start, Off, GV->getName() + ".re");
}

Value *ReverseValueCache::expandSCEV(const SCEV *S, BasicBlock *PB,
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
    return lookup(clone(V), PB, B);
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
  // A pointer plus integers: the pointer advanced by their sum, in bytes.
  if (isa<SCEVAddExpr>(S) && S->getType()->isPointerTy()) {
    Value *Base = nullptr, *Off = nullptr;
    for (const SCEV *Op : cast<SCEVAddExpr>(S)->operands()) {
      Value *V = expandSCEV(Op, PB, B);
      if (!V)
        return nullptr;
      if (V->getType()->isPointerTy()) {
        if (Base)
          return nullptr;
        Base = V;
      } else if (V->getType()->isIntegerTy(64)) {
        Off = Off ? B.CreateAdd(Off, V) : V;
      } else {
        return nullptr;
      }
    }
    return Base && Off ? B.CreateGEP(B.getInt8Ty(), Base, Off) : Base;
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
  // Trip counts: (1 smax %n) - 1, (%n - 1) /u 2 + 1.
  if (auto *MM = dyn_cast<SCEVMinMaxExpr>(S);
      MM && S->getType()->isIntegerTy()) {
    Intrinsic::ID ID = isa<SCEVSMaxExpr>(S)   ? Intrinsic::smax
                       : isa<SCEVUMaxExpr>(S) ? Intrinsic::umax
                       : isa<SCEVSMinExpr>(S) ? Intrinsic::smin
                                              : Intrinsic::umin;
    Value *Acc = nullptr;
    for (const SCEV *Op : MM->operands()) {
      Value *V = expandSCEV(Op, PB, B);
      if (!V || V->getType() != S->getType())
        return nullptr;
      Acc = Acc ? B.CreateBinaryIntrinsic(ID, Acc, V) : V;
    }
    return Acc;
  }
  if (auto *Div = dyn_cast<SCEVUDivExpr>(S)) {
    Value *L = expandSCEV(Div->getLHS(), PB, B);
    auto *R = dyn_cast<SCEVConstant>(Div->getRHS());
    if (!L || !R || R->getValue()->isZero() || L->getType() != S->getType())
      return nullptr;
    return B.CreateUDiv(L, R->getValue());
  }
  auto *AR = dyn_cast<SCEVAddRecExpr>(S);
  if (!AR || AR->getNumOperands() > 3)
    return nullptr;
  if (const SCEV *Exit = exitValue(AR, PB))
    return expandSCEV(Exit, PB, B);
  // A pointer recurrence (a walk through memory): its start advanced by
  // the integer recurrence of its offsets.
  if (S->getType()->isPointerTy()) {
    Value *Start = expandSCEV(AR->getStart(), PB, B);
    Value *Off = Start && Start->getType()->isPointerTy()
                     ? expandOffset(AR, PB, B)
                     : nullptr;
    return Off ? B.CreateGEP(B.getInt8Ty(), Start, Off) : nullptr;
  }
  if (!S->getType()->isIntegerTy())
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

bool ReverseValueCache::keepsIterations(const Loop *L) const {
  for (const auto &[Counted, Entry] : IterationCounters)
    if (L->contains(Counted->getHeader()))
      return true;
  for (const auto &[Cached, LC] : LoopCaches)
    if (L->contains(Cached->getHeader()))
      return true;
  return false;
}

AllocaInst *ReverseValueCache::reverseCounter(const Loop *L) {
  AllocaInst *&Slot = ReverseCounters[L];
  if (!Slot)
    Slot = entryAlloca(Type::getInt64Ty(G.getContext()), "iv.rev.slot");
  return Slot;
}

void ReverseValueCache::enterLoopsBackwards(BasicBlock *Pred, BasicBlock *Succ,
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
      Last = lookup(clone(IV), Succ, B);
    B.CreateStore(Last, reverseCounter(L));
  }
}

Value *ReverseValueCache::expandAtEntry(const SCEV *S, IRBuilderBase &B) {
  Type *T = S->getType();
  if (!T->isIntegerTy())
    return nullptr;
  if (auto *C = dyn_cast<SCEVConstant>(S))
    return C->getValue();
  if (auto *U = dyn_cast<SCEVUnknown>(S))
    return isa<Argument>(U->getValue()) ? clone(U->getValue()) : nullptr;
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

Value *ReverseValueCache::iterationsFromEntry(const Loop *L, IRBuilderBase &B) {
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

/// The room a loop's record array starts with when its trip count is not
/// known up front: a few records, at most a page.
static uint64_t firstRecordsBytes(uint64_t RecordBytes) {
  constexpr uint64_t FirstRecords = 8, MaxFirstBytes = 4096;
  return std::min(FirstRecords * RecordBytes, MaxFirstBytes);
}

bool ReverseValueCache::reserveAtLoopEntry(const Loop *L, Value *State,
                                           AllocaInst *Counter,
                                           uint64_t Bytes) {
  BasicBlock *Pre = L->getLoopPreheader();
  const SCEV *BTC = SE.getBackedgeTakenCount(L);
  if (!Pre || isa<SCEVCouldNotCompute>(BTC))
    return false;
  auto *GPre = dyn_cast_or_null<BasicBlock>(VMap.lookup(Pre));
  if (!GPre)
    return false;
  IRBuilder<> B(GPre->getTerminator());
  Value *Trips = expandAtEntry(BTC, B);
  if (!Trips)
    return false;
  // The counter holds the last record's index; the loop's header runs
  // BTC + 1 times, each advancing it.
  Type *I64 = B.getInt64Ty();
  Value *Count =
      B.CreateAdd(B.CreateLoad(I64, Counter),
                  B.CreateAdd(B.CreateZExtOrTrunc(Trips, I64), B.getInt64(2)));
  B.CreateCall(getTapeReserveFn(*G.getParent()),
               {State, B.CreateMul(Count, B.getInt64(Bytes)),
                B.getInt64(firstRecordsBytes(Bytes))});
  return true;
}

bool ReverseValueCache::recordCountIsExact(const Loop *L) const {
  const Loop *Cur = L;
  for (; const Loop *Parent = Cur->getParentLoop(); Cur = Parent) {
    BasicBlock *Latch = Parent->getLoopLatch();
    if (!Latch || !DT.dominates(Cur->getHeader(), Latch))
      return false;
  }
  return DT.dominates(Cur->getHeader(), RetBlock);
}

AllocaInst *ReverseValueCache::iterationCounter(const Loop *L) {
  auto &Entry = IterationCounters[L];
  if (Entry.first)
    return Entry.first;
  Type *I64 = Type::getInt64Ty(G.getContext());
  AllocaInst *Counter = entryAlloca(I64, "iter");
  IRBuilder<>(Counter->getNextNode())
      .CreateStore(ConstantInt::get(I64, -1, true), Counter);
  auto *H = cast<BasicBlock>(VMap.lookup(L->getHeader()));
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

/// " at line N" for an instruction with a debug location, else "".
static std::string lineOf(const Instruction *I) {
  DebugLoc DL = userLocation(I);
  return DL && DL.getLine() ? " at line " + std::to_string(DL.getLine()) : "";
}

/// " at line N" for a loop with a debug location, else "".
static std::string loopLine(const Loop &L) {
  DebugLoc DL = L.getStartLoc();
  return DL && DL.getLine() ? " at line " + std::to_string(DL.getLine()) : "";
}

/// The name a source gives the object \p Ptr points into ("" if none).
static std::string objectName(const Value *Ptr) {
  const Value *Base = getUnderlyingObject(Ptr);
  if (auto *A = dyn_cast<Argument>(Base))
    return A->hasName() ? A->getName().str()
                        : sourceParameter(*A->getParent(), A->getArgNo()).Name;
  if (auto *GV = dyn_cast<GlobalVariable>(Base))
    return demangle(GV->getName().str());
  return "";
}

/// A write that may change memory a load read, in source terms.
static std::string describeWrite(const Instruction *W) {
  const Value *Dest = nullptr;
  std::string What = "a write";
  if (auto *SI = dyn_cast<StoreInst>(W)) {
    Dest = SI->getPointerOperand();
    What = "the store";
  } else if (auto *MI = dyn_cast<MemIntrinsic>(W)) {
    Dest = MI->getDest();
    What = isa<MemSetInst>(MI) ? "a memset" : "a memory copy";
  } else if (auto *CB = dyn_cast<CallBase>(W)) {
    if (const Function *Callee = CB->getCalledFunction())
      return "the call to '" + sourceName(*Callee) + "'" + lineOf(W);
    return "an indirect call" + lineOf(W);
  }
  std::string Name = Dest ? objectName(Dest) : "";
  return What + (Name.empty() ? "" : " to '" + Name + "'") + lineOf(W);
}

std::string ReverseValueCache::whyCached(Instruction *GV,
                                         const Instruction *PI) {
  if (auto *Load = dyn_cast<LoadInst>(PI)) {
    if (!Load->isSimple())
      return "a volatile or atomic load is not repeated";
    if (Tape.TooManyQueries)
      return "the function has too many loads and writes to ask alias "
             "analysis about each pair, so nothing is reloaded";
    auto It = Tape.Clobbers.find(Load);
    if (It == Tape.Clobbers.end())
      return "its address is not at hand in the reverse sweep";
    if (!It->second)
      return "in split mode the caller may change this memory between the "
             "augmented forward and the reverse";
    std::string Why = "the memory it reads may be overwritten after it is "
                      "read, by " +
                      describeWrite(It->second);
    // Two different pointer parameters: the usual remedy.
    const Value *From = getUnderlyingObject(Load->getPointerOperand());
    const Value *To = nullptr;
    if (auto *SI = dyn_cast<StoreInst>(It->second))
      To = getUnderlyingObject(SI->getPointerOperand());
    std::string FromName = objectName(Load->getPointerOperand());
    std::string ToName =
        To ? objectName(cast<StoreInst>(It->second)->getPointerOperand()) : "";
    if (isa_and_nonnull<Argument>(From) && isa_and_nonnull<Argument>(To) &&
        From != To && !FromName.empty() && !ToName.empty())
      Why += "; if '" + FromName + "' and '" + ToName +
             "' never overlap, declare them restrict (__restrict in C++) and "
             "it is reloaded instead";
    return Why;
  }
  if (isa<PHINode>(PI))
    return "it changes from one iteration or branch to the next and is not "
           "an integer or pointer recurrence the reverse sweep can rebuild "
           "from the loop counter";
  if (isCheapFloatOp(GV)) {
    BasicBlock *PB = primalBlockOf(GV);
    for (Value *Op : GV->operands())
      if (PB && !isFree(Op, PB, 0))
        if (Instruction *OpPI = PrimalOf.lookup(Op))
          return "recomputing it would need " + describe(OpPI) +
                 ", which the reverse sweep would have to cache itself";
    if (isCostlyFloatOp(GV))
      return "a division or square root outside loops is cached once: a "
             "store and a load cost less than computing it again";
  } else if (isa<CallBase>(PI)) {
    return "results of calls other than sqrt, fma, fabs, copysign, fmin and "
           "fmax are not recomputed (a call may be costly or have effects)";
  } else if (PI->getType()->isFPOrFPVectorTy()) {
    return "of floating-point operations only +, -, *, / and negation are "
           "recomputed";
  }
  return "recomputing it would need values the reverse sweep does not have "
         "without the tape";
}

void ReverseValueCache::remarkCached(Value *GV, const Loop *L, uint64_t Bytes,
                                     OptimizationRemarkEmitter &ORE) {
  Instruction *PI = PrimalOf.lookup(GV);
  if (!PI)
    return; // A value Tapestry made (batch lanes), not the user's.
  ORE.emit([&]() {
    DebugLoc DL = userLocation(PI);
    if (!DL && L)
      DL = L->getStartLoc();
    OptimizationRemarkMissed Rem(
        "tapestry", "Cached",
        DL ? DiagnosticLocation(DL)
           : DiagnosticLocation(UserFn.getSubprogram()),
        PI->getParent());
    Rem << "reverse sweep of '" << sourceName(UserFn) << "' caches "
        << describe(PI) << ", " << std::to_string(Bytes) << " bytes "
        << (L ? "per iteration of the loop" + loopLine(*L)
              : std::string("once"))
        << ", instead of " << (isa<LoadInst>(PI) ? "reloading" : "recomputing")
        << " it: " << whyCached(cast<Instruction>(GV), PI);
    return Rem;
  });
}

void ReverseValueCache::remarkRecomputed(OptimizationRemarkEmitter &ORE) {
  if (RecomputedPrimal.empty() && ReloadedPrimal.empty())
    return;
  ORE.emit([&]() {
    OptimizationRemark Rem("tapestry", "Recomputed", &UserFn);
    Rem << "reverse sweep of '" << sourceName(UserFn) << "' recomputes "
        << std::to_string(RecomputedPrimal.size()) << " value(s) and reloads "
        << std::to_string(ReloadedPrimal.size())
        << " value(s) from memory nothing overwrites, instead of caching them";
    // Integer and address arithmetic is recomputed in bulk; the
    // floating-point values and the reloads are the ones users wrote.
    auto List = [&](StringRef Title,
                    const SetVector<const Instruction *> &Values, bool FPOnly) {
      constexpr unsigned MaxShown = 8;
      unsigned Shown = 0, Total = 0;
      for (const Instruction *I : Values) {
        if (FPOnly && !I->getType()->isFPOrFPVectorTy())
          continue;
        if (Total++ == 0)
          Rem << "; " << Title << ":";
        if (Shown < MaxShown) {
          Rem << (Shown ? ", " : " ") << describe(I);
          ++Shown;
        }
      }
      if (Total > Shown)
        Rem << ", ...";
    };
    List("recomputed floating-point values", RecomputedPrimal, true);
    List("reloaded", ReloadedPrimal, false);
    return Rem;
  });
}

void ReverseValueCache::recomputeFromRecords(const Loop *L, LoopCache &LC) {
  // Bounds the arithmetic one read repeats.
  constexpr unsigned MaxOps = 4;
  auto UsableAsIs = [&](Value *Op) {
    BasicBlock *Def = primalBlockOf(Op);
    return !Def || (!LI.getLoopFor(Def) && DT.dominates(Def, RetBlock));
  };
  // Values recomputed, with the operations one read of each repeats.
  DenseMap<Value *, unsigned> Ops;
  // The operations a read of \p V repeats: none for a value usable as it
  // is or a field kept in the records; the arithmetic (of L's own body,
  // not of a loop inside it, so that the operands are this iteration's)
  // down to such values otherwise; nullopt past the bound.
  std::function<std::optional<unsigned>(Value *, unsigned)> Cost =
      [&](Value *V, unsigned Depth) -> std::optional<unsigned> {
    if (UsableAsIs(V))
      return 0;
    if (LC.Fields.count(V))
      return Ops.lookup(V);
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !isCheapFromRecords(I) || Depth >= MaxOps ||
        LI.getLoopFor(primalBlockOf(I)) != L)
      return std::nullopt;
    unsigned N = 1;
    for (Value *Op : I->operands()) {
      std::optional<unsigned> C = Cost(Op, Depth + 1);
      if (!C)
        return std::nullopt;
      N += *C;
    }
    return N;
  };
  // Operands come before their users: decide in the order the forward
  // sweep computes the fields (the records hold them in the order the
  // reverse sweep asked for them).
  SmallVector<Instruction *, 8> Candidates;
  for (auto &Entry : LC.Fields)
    if (auto *I = cast<Instruction>(Entry.first);
        isCheapFromRecords(I) && LI.getLoopFor(primalBlockOf(I)) == L)
      Candidates.push_back(I);
  if (Candidates.empty())
    return;
  DenseMap<const Instruction *, unsigned> Position;
  ReversePostOrderTraversal<Function *> RPO(&G);
  for (BasicBlock *BB : RPO)
    for (Instruction &I : *BB)
      Position[&I] = Position.size();
  llvm::sort(Candidates, [&](Instruction *A, Instruction *B) {
    return Position.lookup(A) < Position.lookup(B);
  });
  for (Instruction *I : Candidates) {
    unsigned N = 1;
    bool FromRecords = all_of(I->operands(), [&](Value *Op) {
      std::optional<unsigned> C = Cost(Op, 1);
      N += C.value_or(MaxOps);
      return C.has_value();
    });
    if (FromRecords && N <= MaxOps)
      Ops[I] = N;
  }
  if (Ops.empty())
    return;
  SmallVector<Value *, 8> ByField(LC.Fields.size());
  for (auto &[V, Field] : LC.Fields)
    ByField[Field] = V;
  MapVector<Value *, unsigned> Kept;
  for (Value *V : ByField)
    if (!Ops.count(V))
      Kept.insert({V, Kept.size()});
  SmallVector<std::pair<LoadInst *, unsigned>, 8> Reads;
  std::function<Value *(Value *, IRBuilderBase &)> Read =
      [&](Value *V, IRBuilderBase &B) -> Value * {
    if (UsableAsIs(V))
      return V;
    if (auto It = Kept.find(V); It != Kept.end()) {
      LoadInst *Ld = B.CreateLoad(V->getType(), PoisonValue::get(B.getPtrTy()),
                                  V->getName() + ".tape");
      Reads.push_back({Ld, It->second});
      return Ld;
    }
    Instruction *C = cast<Instruction>(V)->clone();
    for (unsigned Op = 0; Op < C->getNumOperands(); ++Op)
      C->setOperand(Op, Read(C->getOperand(Op), B));
    B.Insert(C, V->getName() + ".re");
    return C;
  };
  for (auto [Ld, Field] : LC.Reads) {
    Value *V = ByField[Field];
    if (auto It = Kept.find(V); It != Kept.end()) {
      Reads.push_back({Ld, It->second});
      continue;
    }
    IRBuilder<> B(Ld);
    Value *Re = Read(V, B);
    Ld->replaceAllUsesWith(Re);
    Ld->eraseFromParent();
  }
  for (auto &[V, N] : Ops) {
    ++NumRecomputed;
    --NumCachedPerIteration;
    if (Instruction *PI = PrimalOf.lookup(V))
      RecomputedPrimal.insert(PI);
    LLVM_DEBUG(dbgs() << "tapestry: tape: recomputed from the records: " << *V
                      << "\n");
  }
  LC.Fields = std::move(Kept);
  LC.Reads = std::move(Reads);
}

void ReverseValueCache::materialize(BasicBlock *Final,
                                    SmallVectorImpl<AllocaInst *> &States,
                                    SmallVectorImpl<CallInst *> &Releases) {
  Module &M = *G.getParent();
  const DataLayout &DL = M.getDataLayout();
  StructType *StateTy = getTapeStateType(M);
  Function *Reserve = getTapeReserveFn(M);
  SmallVector<AllocaInst *, 4> Records;
  OptimizationRemarkEmitter ORE(&UserFn);
  for (auto &LoopEntry : LoopCaches) {
    const Loop *L = LoopEntry.first;
    LoopCache &LC = LoopEntry.second;
    recomputeFromRecords(L, LC);
    // The record's fields go from the most aligned to the least, so that a
    // flag next to a double costs one byte, not eight: Pos[F] is where field
    // F is in the record.
    SmallVector<Type *, 8> FieldTys;
    for (auto &Entry : LC.Fields)
      FieldTys.push_back(Entry.first->getType());
    SmallVector<unsigned, 8> Order(FieldTys.size()), Pos(FieldTys.size());
    std::iota(Order.begin(), Order.end(), 0u);
    llvm::stable_sort(Order, [&](unsigned A, unsigned B) {
      return DL.getABITypeAlign(FieldTys[A]) > DL.getABITypeAlign(FieldTys[B]);
    });
    SmallVector<Type *, 8> Sorted;
    for (unsigned I = 0; I < Order.size(); ++I) {
      Pos[Order[I]] = I;
      Sorted.push_back(FieldTys[Order[I]]);
    }
    StructType *RecTy = StructType::get(G.getContext(), Sorted);
    // One record per iteration, as the records' GEPs step.
    uint64_t Bytes = DL.getTypeAllocSize(RecTy);
    NumBytesPerIteration += Bytes;
    // -Rpass=tapestry (and -enzyme-print-perf): what the tape holds and why
    // it costs what it does.
    auto LoopRemark = [&]() {
      OptimizationRemark Rem("tapestry", "LoopTape", L->getStartLoc(),
                             &UserFn.getEntryBlock());
      Rem << "reverse sweep of '" << sourceName(UserFn) << "' caches "
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
    for (auto &Entry : LC.Fields)
      remarkCached(Entry.first, L, DL.getTypeAllocSize(Entry.first->getType()),
                   ORE);
    AllocaInst *State = entryAlloca(StateTy, "tape");
    // The state is set up at the end of the entry block, after every
    // alloca: the cache's helpers branch, and inlined among the allocas
    // they would leave the ones after them outside the entry block, where
    // SROA no longer promotes them (and they become dynamic allocas).
    IRBuilder<> SB(AllocaBlock->getTerminator());
    SB.CreateStore(Constant::getNullValue(StateTy), State);
    Records.push_back(State);
    AllocaInst *Counter = IterationCounters[L].first;
    StoreInst *Advance = IterationCounters[L].second;
    // Forward: room for this iteration's record, then each value stored
    // where it is computed.
    // When ScalarEvolution knows how often the loop nest runs from the
    // function's arguments, the records are allocated once up front (the
    // per-iteration check below then never grows them).
    Value *Need = nullptr;
    Value *Total = iterationsFromEntry(L, SB);
    // When that count is exact (every loop of the nest runs in every
    // iteration of the one around it), the records are reserved in full
    // and the forward sweep checks nothing per iteration: the loop stays
    // free of calls, and can be vectorised like the primal's. Otherwise
    // the count bounds them from above, the up-front reservation is
    // capped, and each iteration makes sure its record fits.
    bool Exact = Total && recordCountIsExact(L);
    if (Exact) {
      Value *Product = SB.CreateBinaryIntrinsic(Intrinsic::umul_with_overflow,
                                                Total, SB.getInt64(Bytes));
      Need = SB.CreateSelect(SB.CreateExtractValue(Product, 1),
                             SB.getInt64(UINT64_MAX),
                             SB.CreateExtractValue(Product, 0));
    } else if (Total) {
      Need = SB.CreateBinaryIntrinsic(Intrinsic::umin,
                                      SB.CreateMul(Total, SB.getInt64(Bytes)),
                                      SB.getInt64(uint64_t(1) << 30));
    }
    // The records start in the block an earlier call left that fits them
    // best (TapeCache.h): one of the size known here, or any when the
    // records grow.
    SB.CreateCall(getTapeAcquireFn(M), {State, Need ? Need : SB.getInt64(0)});
    if (Need)
      SB.CreateCall(Reserve, {State, Need, SB.getInt64(0)});
    // Otherwise the records start with room for a few iterations, not a
    // page: the tape of a call whose loop runs a few times (a recursive
    // call's) then grows with its work.
    CallInst *Ready = nullptr;
    // A loop whose trip count is known where it starts (a loop under a
    // condition, an inner loop whose count the outer loop does not change)
    // makes room for all its records there, once per entry: its body then
    // checks nothing either.
    if (!Exact && reserveAtLoopEntry(L, State, Counter, Bytes))
      Exact = true;
    if (!Exact) {
      IRBuilder<> HB(Advance->getNextNode());
      Value *Count = HB.CreateAdd(Advance->getValueOperand(), HB.getInt64(1));
      Ready = HB.CreateCall(Reserve,
                            {State, HB.CreateMul(Count, HB.getInt64(Bytes)),
                             HB.getInt64(firstRecordsBytes(Bytes))});
    }
    auto RecordField = [&](IRBuilderBase &IB, unsigned Field) {
      Value *Base =
          IB.CreateLoad(IB.getPtrTy(), IB.CreateStructGEP(StateTy, State, 0));
      Value *Idx = IB.CreateLoad(IB.getInt64Ty(), Counter);
      Value *Rec = IB.CreateGEP(RecTy, Base, Idx);
      return IB.CreateStructGEP(RecTy, Rec, Pos[Field]);
    };
    for (auto &[V, Field] : LC.Fields) {
      auto *I = cast<Instruction>(V);
      BasicBlock *BB = I->getParent();
      IRBuilder<> SB(BB, std::next(I->getIterator()));
      if (isa<PHINode>(I))
        // After the header has advanced the count (and made room), so that
        // a phi of the header goes into this iteration's record.
        SB.SetInsertPoint(
            BB,
            BB == Advance->getParent()
                ? std::next(
                      (Ready ? (Instruction *)Ready : Advance)->getIterator())
                : BB->getFirstNonPHIIt());
      StoreInst *St =
          SB.CreateAlignedStore(V, RecordField(SB, Field), Align(8));
      St->setMetadata(RecordStoreMD, MDNode::get(G.getContext(), {}));
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
  for (Value *V : OnceOrder)
    remarkCached(V, nullptr, DL.getTypeAllocSize(V->getType()), ORE);
  remarkRecomputed(ORE);
  if (!OnceSlots.empty() || Records.empty()) {
    auto TapeRemark = [&]() {
      OptimizationRemark Rem("tapestry", "Tape", &UserFn);
      Rem << "reverse sweep of '" << sourceName(UserFn) << "' caches "
          << std::to_string(OnceSlots.size()) << " value(s) computed once and "
          << (Records.empty() ? "nothing per loop iteration"
                              : "records per loop iteration (see above)");
      return Rem;
    };
    ORE.emit(TapeRemark);
    printPerf(TapeRemark);
  }
  if (Records.empty())
    return;
  // The records go back to the thread's cache as the reverse sweep ends.
  IRBuilder<> B(Final->getTerminator());
  for (AllocaInst *State : Records) {
    States.push_back(State);
    Releases.push_back(B.CreateCall(getTapeRecycleFn(M), {State}));
  }
}

} // namespace tapestry
