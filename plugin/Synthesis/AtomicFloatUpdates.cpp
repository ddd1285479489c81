//===- AtomicFloatUpdates.cpp - CAS loops as atomic adds ------------------===//
//
// Implements AtomicFloatUpdates.h. An attempt is a cmpxchg of integer bits
// whose new value is bitcast(bitcast(old) + v) (or - v, or v + old), where
// old comes from the location (a load of it, or the value a failed attempt
// found) and v does not depend on old. An attempt is part of an atomic add
// if every path its failure takes goes, without another choice, to a block
// holding an attempt on the same location with the same v that is one too
// (the retry); the loop's attempts become atomicrmw, after which the retry
// is never taken. Rounds repeat while an update's v came from an earlier
// one's result.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/AtomicFloatUpdates.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"

#define DEBUG_TYPE "tapestry"

using namespace llvm;

STATISTIC(NumAtomicFloatUpdates,
          "Compare-exchange loops on a float's bits made atomic adds");

namespace tapestry {

namespace {
/// A compare-exchange that adds \p V to the float whose bits are at Ptr.
struct Attempt {
  AtomicCmpXchgInst *CX;
  Value *V;
  bool Sub;
  Type *FloatTy;
};
} // namespace

/// The same location: the same base and constant offset.
static bool sameLocation(const Value *A, const Value *B, const DataLayout &DL) {
  int64_t OffA = 0, OffB = 0;
  const Value *BaseA = GetPointerBaseWithConstantOffset(A, OffA, DL);
  const Value *BaseB = GetPointerBaseWithConstantOffset(B, OffB, DL);
  return BaseA == BaseB && OffA == OffB;
}

/// True if \p V may depend on \p Old (or cannot be told within a bound).
static bool dependsOn(Value *V, const Value *Old) {
  SmallVector<Value *, 16> Work{V};
  SmallPtrSet<Value *, 16> Seen{V};
  while (!Work.empty()) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I)
      continue;
    if (I == Old || isa<AtomicCmpXchgInst>(I) || Seen.size() > 64)
      return true;
    for (Value *Op : I->operands())
      if (Seen.insert(Op).second)
        Work.push_back(Op);
  }
  return false;
}

/// True if \p Old holds the bits at \p Ptr (as an integer or as the float):
/// loaded from there, or found there by a failed attempt, through casts,
/// phis and selects (the expected value a retry updates).
static bool readFrom(Value *Old, const Value *Ptr, const DataLayout &DL) {
  SmallVector<Value *, 8> Work{Old};
  SmallPtrSet<Value *, 8> Seen{Old};
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    SmallVector<Value *, 2> Next;
    if (auto *LI = dyn_cast<LoadInst>(V)) {
      if (!sameLocation(LI->getPointerOperand(), Ptr, DL))
        return false;
    } else if (auto *EV = dyn_cast<ExtractValueInst>(V)) {
      auto *CX = dyn_cast<AtomicCmpXchgInst>(EV->getAggregateOperand());
      if (!CX || EV->getIndices() != ArrayRef<unsigned>{0} ||
          !sameLocation(CX->getPointerOperand(), Ptr, DL))
        return false;
    } else if (auto *BC = dyn_cast<BitCastInst>(V)) {
      Next.push_back(BC->getOperand(0));
    } else if (auto *Phi = dyn_cast<PHINode>(V)) {
      append_range(Next, Phi->incoming_values());
    } else if (auto *Sel = dyn_cast<SelectInst>(V)) {
      Next = {Sel->getTrueValue(), Sel->getFalseValue()};
    } else {
      return false;
    }
    for (Value *N : Next)
      if (Seen.insert(N).second) {
        if (Seen.size() > 32)
          return false;
        Work.push_back(N);
      }
  }
  return true;
}

/// \p V if it is fma(a, b, old) or fmuladd(a, b, old) (C11's _Atomic
/// double += a * b): the addend is a * b.
static const IntrinsicInst *fusedAdd(const Value *V) {
  auto *II = dyn_cast<IntrinsicInst>(V);
  return II && (II->getIntrinsicID() == Intrinsic::fmuladd ||
                II->getIntrinsicID() == Intrinsic::fma)
             ? II
             : nullptr;
}

/// True if \p A and \p B add the same: the same value, or the same
/// product fused into the add.
static bool sameAddend(const Value *A, const Value *B) {
  if (A == B)
    return true;
  const IntrinsicInst *FA = fusedAdd(A), *FB = fusedAdd(B);
  return FA && FB && FA->getIntrinsicID() == FB->getIntrinsicID() &&
         FA->getArgOperand(0) == FB->getArgOperand(0) &&
         FA->getArgOperand(1) == FB->getArgOperand(1);
}

/// If \p New is Old + V, Old - V, V + Old or a product fused into Old
/// (\p IsOld tells Old apart), sets \p V (the fused call for a product)
/// and \p Sub.
template <typename OldFn>
static bool addsTo(Value *New, OldFn IsOld, Value *&V, bool &Sub) {
  Value *Found = nullptr;
  bool S = false;
  if (const IntrinsicInst *Fused = fusedAdd(New)) {
    if (IsOld(Fused->getArgOperand(2)))
      Found = New;
  } else if (auto *Op = dyn_cast<BinaryOperator>(New);
             Op && (Op->getOpcode() == Instruction::FAdd ||
                    Op->getOpcode() == Instruction::FSub)) {
    S = Op->getOpcode() == Instruction::FSub;
    if (IsOld(Op->getOperand(0)))
      Found = Op->getOperand(1);
    else if (!S && IsOld(Op->getOperand(1)))
      Found = Op->getOperand(0);
  }
  if (!Found || (V && (!sameAddend(Found, V) || S != Sub)))
    return false;
  V = Found;
  Sub = S;
  return true;
}

/// True if the addend \p V may depend on \p Old.
static bool addendDependsOn(Value *V, const Value *Old) {
  if (const IntrinsicInst *Fused = fusedAdd(V))
    return dependsOn(Fused->getArgOperand(0), Old) ||
           dependsOn(Fused->getArgOperand(1), Old);
  return dependsOn(V, Old);
}

/// The floating-point value whose bits \p V is, or null.
static Value *floatBehind(Value *V) {
  auto *BC = dyn_cast<BitCastInst>(V);
  return BC && BC->getSrcTy()->isFloatingPointTy() ? BC->getOperand(0)
                                                   : nullptr;
}

static std::optional<Attempt> matchAttempt(AtomicCmpXchgInst &CX) {
  const DataLayout &DL = CX.getModule()->getDataLayout();
  Value *Old = CX.getCompareOperand();
  Value *NewF = floatBehind(CX.getNewValOperand());
  if (!Old->getType()->isIntegerTy() || !NewF)
    return std::nullopt;
  // Old as a float: the value it was cast from, or a cast of it.
  Value *OldF = floatBehind(Old);
  auto IsOldOf = [](Value *OldI, Value *OldFloat) {
    return [=](Value *X) {
      if (X == OldFloat && OldFloat)
        return true;
      auto *BC = dyn_cast<BitCastInst>(X);
      return BC && BC->getOperand(0) == OldI;
    };
  };
  Value *V = nullptr;
  bool Sub = false;
  if (!addsTo(NewF, IsOldOf(Old, OldF), V, Sub)) {
    // The expected and the new value carried around the loop: on each
    // edge into it, the new value adds to the expected one.
    auto *NewPhi = dyn_cast<PHINode>(NewF);
    auto *OldPhi = dyn_cast_or_null<PHINode>(OldF);
    if (!NewPhi || !OldPhi || NewPhi->getParent() != OldPhi->getParent())
      return std::nullopt;
    for (BasicBlock *In : NewPhi->blocks()) {
      Value *A = OldPhi->getIncomingValueForBlock(In);
      if (!addsTo(NewPhi->getIncomingValueForBlock(In), IsOldOf(nullptr, A), V,
                  Sub))
        return std::nullopt;
    }
  }
  if (!V || addendDependsOn(V, Old) || (OldF && addendDependsOn(V, OldF)) ||
      !readFrom(Old, CX.getPointerOperand(), DL))
    return std::nullopt;
  return Attempt{&CX, V, Sub, NewF->getType()};
}

/// The compare-exchanges whose success \p Cond tests, through extensions
/// and truncations, xor with true (\p Negated) and phis merging the flags
/// of several (one per memory order at -O0); empty if it tests anything
/// else.
static SmallVector<const AtomicCmpXchgInst *, 4> testedSwaps(const Value *Cond,
                                                             bool &Negated) {
  SmallVector<const AtomicCmpXchgInst *, 4> Swaps;
  Negated = false;
  for (unsigned Steps = 0; Steps < 8; ++Steps) {
    if (auto *Cast = dyn_cast<CastInst>(Cond);
        Cast && (isa<ZExtInst>(Cast) || isa<TruncInst>(Cast))) {
      Cond = Cast->getOperand(0);
      continue;
    }
    if (auto *X = dyn_cast<BinaryOperator>(Cond);
        X && X->getOpcode() == Instruction::Xor) {
      auto *One = dyn_cast<ConstantInt>(X->getOperand(1));
      if (!One || !One->isOne())
        return {};
      Negated = !Negated;
      Cond = X->getOperand(0);
      continue;
    }
    break;
  }
  SmallVector<const Value *, 4> Flags{Cond};
  if (auto *Phi = dyn_cast<PHINode>(Cond))
    Flags.assign(Phi->incoming_values().begin(), Phi->incoming_values().end());
  for (const Value *F : Flags) {
    if (auto *Z = dyn_cast<ZExtInst>(F))
      F = Z->getOperand(0);
    auto *EV = dyn_cast<ExtractValueInst>(F);
    auto *CX =
        EV ? dyn_cast<AtomicCmpXchgInst>(EV->getAggregateOperand()) : nullptr;
    if (!CX || EV->getIndices() != ArrayRef<unsigned>{1})
      return {};
    Swaps.push_back(CX);
  }
  return Swaps;
}

/// True if every path a failed \p CX takes retries: from the successor
/// the branch deciding on its success takes on failure, through
/// unconditional branches and switches (one attempt per memory order at
/// -O0), each path reaches a block \p Retries accepts before any other
/// choice. A loop that may give up (a retry budget, a break) is not an
/// atomic add (review40 F2).
template <typename RetryFn>
static bool alwaysRetries(AtomicCmpXchgInst &CX, RetryFn Retries) {
  BasicBlock *BB = CX.getParent();
  auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
  for (unsigned Steps = 0; Br && Br->isUnconditional() && Steps < 4; ++Steps)
    Br = dyn_cast<BranchInst>(Br->getSuccessor(0)->getTerminator());
  bool Negated = false;
  if (!Br || !Br->isConditional() ||
      !is_contained(testedSwaps(Br->getCondition(), Negated), &CX))
    return false;
  SmallVector<std::pair<const BasicBlock *, unsigned>, 8> Work{
      {Br->getSuccessor(Negated ? 0 : 1), 0}};
  SmallPtrSet<const BasicBlock *, 8> Seen;
  while (!Work.empty()) {
    auto [B, Depth] = Work.pop_back_val();
    if (Retries(B) || !Seen.insert(B).second)
      continue; // retried, or a cycle without a choice already followed
    const Instruction *T = B->getTerminator();
    bool Unconditional = isa<BranchInst>(T) && T->getNumSuccessors() == 1;
    if (Depth >= 4 || !(Unconditional || isa<SwitchInst>(T)))
      return false;
    for (const BasicBlock *Succ : successors(B))
      Work.push_back({Succ, Depth + 1});
  }
  return true;
}

/// Rewrites the attempts of one round; returns true if any.
static bool rewriteAttempts(Function &F,
                            SmallVectorImpl<const Value *> &Locations) {
  SmallVector<Attempt, 4> Attempts;
  for (Instruction &I : instructions(F))
    if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
      if (std::optional<Attempt> A = matchAttempt(*CX))
        Attempts.push_back(*A);
  const DataLayout &DL = F.getParent()->getDataLayout();
  // Keep the attempts whose failure always retries with one kept, to a
  // fixed point.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (size_t K = 0; K < Attempts.size(); ++K) {
      Attempt &A = Attempts[K];
      bool Retried = alwaysRetries(*A.CX, [&](const BasicBlock *BB) {
        return any_of(Attempts, [&](const Attempt &B) {
          return B.CX->getParent() == BB && sameAddend(B.V, A.V) &&
                 B.Sub == A.Sub &&
                 sameLocation(B.CX->getPointerOperand(),
                              A.CX->getPointerOperand(), DL);
        });
      });
      if (!Retried) {
        Attempts.erase(Attempts.begin() + K);
        Changed = true;
        break;
      }
    }
  }
  for (Attempt &A : Attempts) {
    AtomicCmpXchgInst &CX = *A.CX;
    IRBuilder<> B(&CX);
    Value *Ptr = CX.getPointerOperand();
    Locations.push_back(Ptr);
    Value *Addend = A.V;
    if (const IntrinsicInst *Fused = fusedAdd(A.V))
      Addend = B.CreateFMul(Fused->getArgOperand(0), Fused->getArgOperand(1));
    Value *Old = B.CreateAtomicRMW(
        A.Sub ? AtomicRMWInst::FSub : AtomicRMWInst::FAdd, Ptr, Addend,
        CX.getAlign(), CX.getSuccessOrdering(), CX.getSyncScopeID());
    Value *Result = PoisonValue::get(CX.getType());
    Result = B.CreateInsertValue(
        Result, B.CreateBitCast(Old, CX.getCompareOperand()->getType()), 0);
    Result = B.CreateInsertValue(Result, B.getTrue(), 1);
    Value *NewBits = CX.getNewValOperand();
    CX.replaceAllUsesWith(Result);
    CX.eraseFromParent();
    RecursivelyDeleteTriviallyDeadInstructions(NewBits);
    ++NumAtomicFloatUpdates;
  }
  return !Attempts.empty();
}

bool lowerAtomicFloatUpdates(Function &F) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  SmallVector<const Value *, 4> Locations;
  // An update whose value comes from an earlier one's result (prev =
  // a.fetch_add(y); b.fetch_add(prev * y)) matches once that one is an
  // atomic add.
  bool Rewrote = false;
  for (unsigned Round = 0; Round < 4 && rewriteAttempts(F, Locations); ++Round)
    Rewrote = true;
  // The bits read (load()) and written (store()) as integers at those
  // locations, and atomically anywhere (std::atomic<double> updated in a
  // callee): as the float.
  auto AtUpdated = [&](const Value *P) {
    return any_of(Locations,
                  [&](const Value *L) { return sameLocation(L, P, DL); });
  };
  SmallVector<Instruction *, 8> Retyped;
  for (Instruction &I : instructions(F)) {
    if (auto *LI = dyn_cast<LoadInst>(&I);
        LI && LI->getType()->isIntegerTy() &&
        (LI->isAtomic() || AtUpdated(LI->getPointerOperand())) &&
        !LI->use_empty() && all_of(LI->users(), [&](const User *U) {
          return isa<BitCastInst>(U) && U->getType()->isFloatingPointTy();
        }))
      Retyped.push_back(LI);
    if (auto *SI = dyn_cast<StoreInst>(&I)) {
      auto *BC = dyn_cast<BitCastInst>(SI->getValueOperand());
      if (BC && BC->getSrcTy()->isFloatingPointTy() &&
          (SI->isAtomic() || AtUpdated(SI->getPointerOperand())))
        Retyped.push_back(SI);
    }
  }
  for (Instruction *I : Retyped) {
    IRBuilder<> B(I);
    if (auto *LI = dyn_cast<LoadInst>(I)) {
      Type *FloatTy = LI->user_back()->getType();
      LoadInst *New = B.CreateAlignedLoad(FloatTy, LI->getPointerOperand(),
                                          LI->getAlign(), LI->isVolatile());
      New->setAtomic(LI->getOrdering(), LI->getSyncScopeID());
      New->takeName(LI);
      for (User *U : make_early_inc_range(LI->users())) {
        auto *BC = cast<BitCastInst>(U);
        BC->replaceAllUsesWith(BC->getType() == FloatTy
                                   ? static_cast<Value *>(New)
                                   : B.CreateBitCast(New, BC->getType()));
        BC->eraseFromParent();
      }
      LI->eraseFromParent();
      continue;
    }
    auto *SI = cast<StoreInst>(I);
    auto *BC = cast<BitCastInst>(SI->getValueOperand());
    StoreInst *New =
        B.CreateAlignedStore(BC->getOperand(0), SI->getPointerOperand(),
                             SI->getAlign(), SI->isVolatile());
    New->setAtomic(SI->getOrdering(), SI->getSyncScopeID());
    SI->eraseFromParent();
    RecursivelyDeleteTriviallyDeadInstructions(BC);
  }
  return Rewrote || !Retyped.empty();
}

} // namespace tapestry
