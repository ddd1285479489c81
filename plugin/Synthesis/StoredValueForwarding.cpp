//===- StoredValueForwarding.cpp - Recompute what a loop stored -----------===//
//
// Implements StoredValueForwarding.h. For a load in loop LL whose address is
// the recurrence {P,+,s}<LL>, the store it reads is one in a sibling loop
// LS (same parent loop, or both outermost) at {P,+,s}<LS>, executed in
// every iteration of LS, where LS runs before the load in the same
// iteration of the parent and at least as many times as LL (ScalarEvolution's
// backedge-taken counts), and no other write that may alias the load can
// run from LS's start to the load. The stored value is then rebuilt at the
// load: its integer and address parts by ScalarEvolution with LS's
// recurrences moved to LL (SCEVExpander), its loads (of memory nothing in
// the function writes) and floating-point arithmetic cloned.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/StoredValueForwarding.h"

#include "Analysis/TapeAnalysis.h"
#include "Core/AllocationFunctions.h"
#include "Core/MathFunctions.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#define DEBUG_TYPE "tapestry"

using namespace llvm;

STATISTIC(NumForwardedLoads,
          "Loads of what an earlier loop stored, computed again instead");

namespace tapestry {
namespace {

/// The same SCEV with the recurrences of loop From made recurrences of To.
class LoopMove : public SCEVRewriteVisitor<LoopMove> {
public:
  LoopMove(ScalarEvolution &SE, const Loop *From, const Loop *To)
      : SCEVRewriteVisitor(SE), From(From), To(To) {}
  const SCEV *visitAddRecExpr(const SCEVAddRecExpr *AR) {
    SmallVector<const SCEV *, 3> Ops;
    for (const SCEV *Op : AR->operands())
      Ops.push_back(visit(Op));
    const Loop *L = AR->getLoop() == From ? To : AR->getLoop();
    return SE.getAddRecExpr(Ops, L, SCEV::FlagAnyWrap);
  }

private:
  const Loop *From, *To;
};

/// At most this many instructions are computed again for one load.
constexpr unsigned MaxRebuilt = 12;

class Forwarder {
public:
  Forwarder(Function &F, FunctionAnalysisManager &FAM)
      : F(F), LI(FAM.getResult<LoopAnalysis>(F)),
        SE(FAM.getResult<ScalarEvolutionAnalysis>(F)),
        DT(FAM.getResult<DominatorTreeAnalysis>(F)),
        AA(FAM.getResult<AAManager>(F)), DL(F.getParent()->getDataLayout()) {}

  bool run();

private:
  /// The store \p L reads, in a sibling loop that fills what L's loop
  /// reads (null if none); \p LS is set to its loop.
  StoreInst *sourceStore(LoadInst &L, Loop *&LS, Loop *&LL);
  /// True if \p LS runs, all of it, before \p L whenever L runs, in the
  /// same iteration of their parent loop.
  bool runsBefore(Loop *LS, LoadInst &L, Loop *LL);
  /// True if no write but \p S that may change what \p L reads can run
  /// between the start of \p LS and L.
  bool nothingWrittenBetween(StoreInst &S, Loop *LS, LoadInst &L);
  /// True if no instruction of the function may write what \p Ld reads.
  bool unwritten(LoadInst &Ld);
  /// The SCEV of \p V (in LS) at LL's iteration, if it can be built at
  /// \p At; null otherwise.
  const SCEV *movedSCEV(Value *V, Loop *LS, Loop *LL, Instruction *At);
  /// True if \p V, from the store in \p LS, can be computed again at \p At
  /// in \p LL, within \p Budget instructions.
  bool rebuildable(Value *V, Loop *LS, Loop *LL, Instruction *At,
                   unsigned &Budget);
  Value *rebuild(Value *V, Loop *LS, Loop *LL, Instruction *At,
                 SCEVExpander &Exp, DenseMap<Value *, Value *> &Done);

  Function &F;
  LoopInfo &LI;
  ScalarEvolution &SE;
  DominatorTree &DT;
  AAResults &AA;
  const DataLayout &DL;
  SmallVector<Instruction *, 32> Writes;
  DenseMap<const LoadInst *, bool> Unwritten;
};

} // namespace

/// True if \p I is floating-point arithmetic cheap enough to repeat.
static bool isCheapFloatOp(const Instruction &I) {
  if (!I.getType()->isFloatingPointTy())
    return false;
  if (isa<UnaryOperator>(I))
    return I.getOpcode() == Instruction::FNeg;
  if (isa<BinaryOperator>(I))
    return I.getOpcode() == Instruction::FAdd ||
           I.getOpcode() == Instruction::FSub ||
           I.getOpcode() == Instruction::FMul;
  if (isa<FPExtInst>(I) || isa<FPTruncInst>(I) || isa<SIToFPInst>(I) ||
      isa<UIToFPInst>(I))
    return true;
  if (const auto *II = dyn_cast<IntrinsicInst>(&I))
    switch (II->getIntrinsicID()) {
    case Intrinsic::fmuladd:
    case Intrinsic::fma:
    case Intrinsic::fabs:
      return true;
    default:
      return false;
    }
  return false;
}

StoreInst *Forwarder::sourceStore(LoadInst &L, Loop *&LS, Loop *&LL) {
  if (!L.isSimple() || !L.getType()->isFloatingPointTy() ||
      !LI.getLoopFor(L.getParent()))
    return nullptr;
  const auto *ARL = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(L.getPointerOperand()));
  if (!ARL || !ARL->isAffine())
    return nullptr;
  LL = const_cast<Loop *>(ARL->getLoop());
  // The index is the iteration of a loop around the load (not the last
  // iteration of one it follows).
  if (!LL->contains(&L))
    return nullptr;
  for (Instruction *W : Writes) {
    auto *S = dyn_cast<StoreInst>(W);
    if (!S || !S->isSimple() || S->getValueOperand()->getType() != L.getType())
      continue;
    const auto *ARS =
        dyn_cast<SCEVAddRecExpr>(SE.getSCEV(S->getPointerOperand()));
    if (!ARS || !ARS->isAffine() || ARS->getStart() != ARL->getStart() ||
        ARS->getStepRecurrence(SE) != ARL->getStepRecurrence(SE))
      continue;
    // Disjoint bytes in every iteration of the store's loop: a store that
    // steps by less than its size overwrites part of what it stored the
    // iteration before (memcpy(buf + 4 * i, &v, 8)).
    const auto *Step = dyn_cast<SCEVConstant>(ARS->getStepRecurrence(SE));
    if (!Step || Step->getAPInt().abs().ult(
                     DL.getTypeStoreSize(S->getValueOperand()->getType())))
      continue;
    LS = const_cast<Loop *>(ARS->getLoop());
    // The store runs in every iteration of its loop, itself directly in
    // the store's loop, which leaves only from its latch.
    if (LI.getLoopFor(S->getParent()) != LS || LS->contains(&L) ||
        LL->contains(LS) || !LS->getLoopLatch() ||
        LS->getExitingBlock() != LS->getLoopLatch() ||
        !DT.dominates(S->getParent(), LS->getLoopLatch()))
      continue;
    // Sibling loops: the store's loop is a child of the innermost loop
    // around both.
    Loop *Par = LI.getLoopFor(L.getParent());
    while (Par && !Par->contains(LS))
      Par = Par->getParentLoop();
    if (LS->getParentLoop() != Par)
      continue;
    // The store's loop writes every index the load's loop reads.
    const SCEV *BL = SE.getBackedgeTakenCount(LL);
    const SCEV *BS = SE.getBackedgeTakenCount(LS);
    if (isa<SCEVCouldNotCompute>(BL) || isa<SCEVCouldNotCompute>(BS))
      continue;
    Type *Wide = SE.getWiderType(BL->getType(), BS->getType());
    if (!SE.isKnownPredicate(ICmpInst::ICMP_ULE,
                             SE.getNoopOrZeroExtend(BL, Wide),
                             SE.getNoopOrZeroExtend(BS, Wide)))
      continue;
    if (!runsBefore(LS, L, LL) || !nothingWrittenBetween(*S, LS, L))
      continue;
    return S;
  }
  return nullptr;
}

bool Forwarder::runsBefore(Loop *LS, LoadInst &L, Loop *LL) {
  // (An exit block entered only from the loop: LoopSimplify's form.)
  if (BasicBlock *Exit = LS->getExitBlock();
      Exit && LS->hasDedicatedExits() && DT.dominates(Exit, L.getParent()))
    return true;
  // A rotated loop is skipped when its guard fails (the branch into its
  // preheader, which has no other way in): then the load's loop must not
  // run either, its entry implying the guard's condition.
  BasicBlock *Pre = LS->getLoopPreheader();
  BasicBlock *GuardBB = Pre ? Pre->getSinglePredecessor() : nullptr;
  auto *Guard =
      GuardBB ? dyn_cast<BranchInst>(GuardBB->getTerminator()) : nullptr;
  auto *Cond = Guard && Guard->isConditional()
                   ? dyn_cast<ICmpInst>(Guard->getCondition())
                   : nullptr;
  if (!Cond || Guard->getSuccessor(0) == Guard->getSuccessor(1) ||
      !DT.dominates(GuardBB, L.getParent()) ||
      !SE.isSCEVable(Cond->getOperand(0)->getType()))
    return false;
  ICmpInst::Predicate Pred = Guard->getSuccessor(0) == Pre
                                 ? Cond->getPredicate()
                                 : Cond->getInversePredicate();
  return SE.isLoopEntryGuardedByCond(LL, Pred, SE.getSCEV(Cond->getOperand(0)),
                                     SE.getSCEV(Cond->getOperand(1)));
}

/// The blocks reachable from \p From (itself included) without entering
/// \p Stop, forwards along successors or, with \p Backwards, along
/// predecessors. (isPotentiallyReachable answers "maybe" past 32 blocks.)
static SmallPtrSet<BasicBlock *, 32>
reachableBlocks(BasicBlock *From, const SmallPtrSetImpl<BasicBlock *> &Stop,
                bool Backwards) {
  SmallPtrSet<BasicBlock *, 32> Seen{From};
  SmallVector<BasicBlock *, 32> Work{From};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    auto Visit = [&](BasicBlock *Next) {
      if (!Stop.count(Next) && Seen.insert(Next).second)
        Work.push_back(Next);
    };
    if (Backwards)
      for (BasicBlock *P : predecessors(BB))
        Visit(P);
    else
      for (BasicBlock *S : successors(BB))
        Visit(S);
  }
  return Seen;
}

bool Forwarder::nothingWrittenBetween(StoreInst &S, Loop *LS, LoadInst &L) {
  MemoryLocation Loc = MemoryLocation::getBeforeOrAfter(L.getPointerOperand(),
                                                        L.getAAMetadata());
  // Between: after the store's loop starts (within this iteration of the
  // loop around it) and before the load (without running that loop again).
  SmallPtrSet<BasicBlock *, 2> Stop;
  if (Loop *Par = LS->getParentLoop())
    Stop.insert(Par->getHeader());
  SmallPtrSet<BasicBlock *, 32> After =
      reachableBlocks(LS->getHeader(), Stop, /*Backwards=*/false);
  Stop.insert(LS->getHeader());
  SmallPtrSet<BasicBlock *, 32> Before =
      reachableBlocks(L.getParent(), Stop, /*Backwards=*/true);
  for (Instruction *W : Writes) {
    if (W == &S || !mayOverwrite(*W, Loc, L.getPointerOperand(), AA))
      continue;
    if (LS->contains(W) ||
        (After.count(W->getParent()) && Before.count(W->getParent())))
      return false;
  }
  return true;
}

bool Forwarder::unwritten(LoadInst &Ld) {
  auto [It, New] = Unwritten.insert({&Ld, true});
  if (!New)
    return It->second;
  MemoryLocation Loc = MemoryLocation::getBeforeOrAfter(Ld.getPointerOperand(),
                                                        Ld.getAAMetadata());
  bool Clean = Ld.isSimple() && none_of(Writes, [&](Instruction *W) {
                 return mayOverwrite(*W, Loc, Ld.getPointerOperand(), AA);
               });
  Unwritten[&Ld] = Clean;
  return Clean;
}

const SCEV *Forwarder::movedSCEV(Value *V, Loop *LS, Loop *LL,
                                 Instruction *At) {
  if (!SE.isSCEVable(V->getType()))
    return nullptr;
  const SCEV *S = LoopMove(SE, LS, LL).visit(SE.getSCEV(V));
  // Everything it is built from is available at At: recurrences of loops
  // around At, and values that dominate At.
  if (isa<SCEVCouldNotCompute>(S))
    return nullptr;
  bool Ok = !SCEVExprContains(S, [&](const SCEV *Sub) {
    if (auto *AR = dyn_cast<SCEVAddRecExpr>(Sub))
      return !AR->getLoop()->contains(At);
    if (auto *U = dyn_cast<SCEVUnknown>(Sub))
      if (auto *I = dyn_cast<Instruction>(U->getValue()))
        return !DT.dominates(I, At);
    return false;
  });
  return Ok ? S : nullptr;
}

/// True if \p I is integer or address arithmetic, repeated as it is.
static bool isIndexArithmetic(const Instruction &I) {
  return isa<GetElementPtrInst>(I) ||
         (isa<CastInst>(I) && !I.getType()->isFloatingPointTy() &&
          !isa<IntToPtrInst>(I) && !isa<PtrToIntInst>(I)) ||
         (isa<BinaryOperator>(I) && I.getType()->isIntegerTy());
}

bool Forwarder::rebuildable(Value *V, Loop *LS, Loop *LL, Instruction *At,
                            unsigned &Budget) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || (!LS->contains(I) && DT.dominates(I, At)))
    return true;
  if (Budget == 0)
    return false;
  --Budget;
  // Index arithmetic before the loop (in its preheader, under its guard)
  // is repeated from its operands.
  if (!LS->contains(I))
    return isIndexArithmetic(*I) && all_of(I->operands(), [&](Value *Op) {
             return rebuildable(Op, LS, LL, At, Budget);
           });
  if (LI.getLoopFor(I->getParent()) != LS)
    return false;
  // The loop's recurrences become the load's loop's.
  if (isa<PHINode>(I))
    return I->getParent() == LS->getHeader() &&
           isa_and_nonnull<SCEVAddRecExpr>(movedSCEV(I, LS, LL, At));
  if (auto *Ld = dyn_cast<LoadInst>(I))
    return unwritten(*Ld) &&
           rebuildable(Ld->getPointerOperand(), LS, LL, At, Budget);
  if (!isCheapFloatOp(*I) && !isIndexArithmetic(*I))
    return false;
  return all_of(I->operands(), [&](Value *Op) {
    return isa<Function>(Op) || rebuildable(Op, LS, LL, At, Budget);
  });
}

Value *Forwarder::rebuild(Value *V, Loop *LS, Loop *LL, Instruction *At,
                          SCEVExpander &Exp, DenseMap<Value *, Value *> &Done) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || (!LS->contains(I) && DT.dominates(I, At)))
    return V;
  if (Value *R = Done.lookup(V))
    return R;
  Value *R;
  if (isa<PHINode>(I)) {
    R = Exp.expandCodeFor(movedSCEV(I, LS, LL, At), I->getType(), At);
  } else {
    Instruction *C = I->clone();
    for (Use &Op : C->operands())
      if (!isa<Function>(Op.get()))
        Op.set(rebuild(Op.get(), LS, LL, At, Exp, Done));
    C->insertBefore(At);
    C->setName(I->getName() + ".fwd");
    R = C;
  }
  Done[V] = R;
  return R;
}

/// True if the address \p Int (a ptrtoint) is only compared and measured
/// (end - begin, a sized delete's size): never turned back into a pointer,
/// stored or passed to anything but a free.
static bool onlyMeasured(Instruction &Int) {
  SmallVector<Instruction *, 8> Work{&Int};
  SmallPtrSet<Instruction *, 8> Seen{&Int};
  while (!Work.empty()) {
    Instruction *V = Work.pop_back_val();
    for (User *U : V->users()) {
      auto *I = dyn_cast<Instruction>(U);
      if (!I)
        return false;
      if (isa<ICmpInst>(I))
        continue;
      if (auto *CB = dyn_cast<CallBase>(I); CB && isDeallocationCall(*CB))
        continue;
      if (!isa<BinaryOperator>(I) && !isa<PHINode>(I) && !isa<SelectInst>(I) &&
          !(isa<CastInst>(I) && !isa<IntToPtrInst>(I)))
        return false;
      if (Seen.insert(I).second)
        Work.push_back(I);
    }
  }
  return true;
}

/// Erases the stores into the block \p Root (an alloca or an allocation
/// call) when nothing reads it any more: every use of its address, through
/// address arithmetic and phis or selects of it and null, is a store to
/// it, a memset of it, a comparison, a measure of its size, a lifetime
/// marker or its free.
static void eraseStoresIfUnread(Instruction &Root) {
  // The addresses derived from the block, then what uses them.
  SmallSetVector<Instruction *, 16> Derived;
  Derived.insert(&Root);
  SmallVector<std::pair<Instruction *, Value *>, 16> Uses;
  for (unsigned Next = 0; Next < Derived.size(); ++Next) {
    Instruction *V = Derived[Next];
    for (User *U : V->users()) {
      auto *I = dyn_cast<Instruction>(U);
      if (!I)
        return;
      if ((isa<GetElementPtrInst>(I) && I->getOperand(0) == V) ||
          isa<BitCastInst>(I) || isa<PHINode>(I) || isa<SelectInst>(I))
        Derived.insert(I);
      else
        Uses.push_back({I, V});
    }
  }
  // A merge of this block with another may be either.
  auto IsDerived = [&](Value *V) {
    auto *I = dyn_cast<Instruction>(V);
    return isa<ConstantPointerNull>(V) || (I && Derived.contains(I));
  };
  for (Instruction *I : Derived) {
    if (auto *Phi = dyn_cast<PHINode>(I);
        Phi && !all_of(Phi->incoming_values(), IsDerived))
      return;
    if (auto *Sel = dyn_cast<SelectInst>(I);
        Sel &&
        (!IsDerived(Sel->getTrueValue()) || !IsDerived(Sel->getFalseValue())))
      return;
    if (isa<GetElementPtrInst>(I) &&
        any_of(drop_begin(I->operands()),
               [&](Value *Op) { return IsDerived(Op); }))
      return;
  }
  SmallVector<Instruction *, 16> Stores;
  for (auto [I, V] : Uses) {
    if (auto *SI = dyn_cast<StoreInst>(I)) {
      if (SI->getValueOperand() == V || !SI->isSimple())
        return;
      Stores.push_back(SI);
      continue;
    }
    if (auto *MS = dyn_cast<MemSetInst>(I)) {
      if (MS->getRawDest() != V || MS->isVolatile())
        return;
      Stores.push_back(MS);
      continue;
    }
    if (isa<ICmpInst>(I) || (isa<PtrToIntInst>(I) && onlyMeasured(*I)))
      continue;
    if (auto *II = dyn_cast<IntrinsicInst>(I);
        II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II)))
      continue;
    if (auto *CB = dyn_cast<CallBase>(I);
        CB && isDeallocationCall(*CB) && CB->arg_size() >= 1 &&
        CB->getArgOperand(0) == V &&
        none_of(drop_begin(CB->args()), [&](Value *A) { return A == V; }))
      continue;
    return;
  }
  for (Instruction *St : Stores)
    St->eraseFromParent();
}

bool Forwarder::run() {
  for (Instruction &I : instructions(F)) {
    if (!I.mayWriteToMemory())
      continue;
    // Math functions write only errno, which no load here reads.
    if (auto *CB = dyn_cast<CallBase>(&I);
        CB && findMathFunction(*CB) && !mathWritesMemory(*CB))
      continue;
    Writes.push_back(&I);
  }
  SmallVector<std::pair<LoadInst *, StoreInst *>, 8> Found;
  SmallVector<std::pair<Loop *, Loop *>, 8> FoundLoops;
  for (Instruction &I : instructions(F)) {
    auto *L = dyn_cast<LoadInst>(&I);
    Loop *LS = nullptr, *LL = nullptr;
    StoreInst *S = L ? sourceStore(*L, LS, LL) : nullptr;
    unsigned Budget = MaxRebuilt;
    if (!S || !rebuildable(S->getValueOperand(), LS, LL, L, Budget))
      continue;
    Found.push_back({L, S});
    FoundLoops.push_back({LS, LL});
  }
  if (Found.empty())
    return false;
  SCEVExpander Exp(SE, DL, "tapestry.fwd");
  for (auto [Pair, Loops] : zip(Found, FoundLoops)) {
    auto [L, S] = Pair;
    auto [LS, LL] = Loops;
    DenseMap<Value *, Value *> Done;
    Value *V = rebuild(S->getValueOperand(), LS, LL, L, Exp, Done);
    LLVM_DEBUG(dbgs() << "tapestry: forwarded " << *S << " to " << *L << "\n");
    ++NumForwardedLoads;
    L->replaceAllUsesWith(V);
  }
  SmallPtrSet<Instruction *, 4> Roots;
  for (auto &[L, S] : Found) {
    L->eraseFromParent();
    SmallVector<const Value *, 4> Objs;
    getUnderlyingObjects(S->getPointerOperand(), Objs);
    for (const Value *Obj : Objs)
      if (auto *Root = dyn_cast<Instruction>(const_cast<Value *>(Obj));
          Root &&
          (isa<AllocaInst>(Root) ||
           (isa<CallBase>(Root) && isAllocationCall(*cast<CallBase>(Root)))))
        Roots.insert(Root);
  }
  // The scratch array may now be written and never read.
  for (Instruction *Root : Roots)
    eraseStoresIfUnread(*Root);
  return true;
}

bool forwardStoredValues(Function &F, FunctionAnalysisManager &FAM) {
  bool Changed = Forwarder(F, FAM).run();
  if (Changed)
    FAM.invalidate(F, PreservedAnalyses::none());
  return Changed;
}

} // namespace tapestry
