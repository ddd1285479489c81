//===- PackedShadows.cpp - Batch forward mode: lanes side by side ---------===//
//
// Implements PackedShadows.h: planPackedShadows gathers each candidate
// allocation's pointers, joins allocations that meet in a phi, a select or
// a copy into one group, and keeps the groups whose every use the packed
// layout serves, with one element size.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/PackedShadows.h"

#include "Analysis/ActivityAnalysis.h"
#include "Analysis/RuntimeActivity.h"
#include "Core/AddressIntegers.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace llvm::PatternMatch;

#define DEBUG_TYPE "tapestry"

STATISTIC(NumPackedAllocations,
          "Batch forward mode: allocations whose shadow lanes are packed");

namespace tapestry {

namespace {

/// The library allocators whose shadow is allocated by scaling the size.
bool isPackableAllocator(const CallBase &CB) {
  // (A definition of its own in the module is differentiated as a call.)
  const Function *F = CB.getCalledFunction();
  if (!F || !F->isDeclaration())
    return false;
  StringRef N = F->getName();
  return N == "malloc" || N == "calloc" || N == "_Znwm" || N == "_Znam";
}

/// The library deallocators a packed shadow can be given (the sized ones
/// get the size scaled).
bool isPackableDeallocator(const CallBase &CB, const Value *Ptr) {
  const Function *F = CB.getCalledFunction();
  if (!F || CB.arg_empty() || CB.getArgOperand(0) != Ptr)
    return false;
  StringRef N = F->getName();
  if (N == "free" || N == "_ZdlPv" || N == "_ZdaPv")
    return CB.arg_size() == 1;
  if (N == "_ZdlPvm" || N == "_ZdaPvm")
    return CB.arg_size() == 2 && CB.getArgOperand(1) != Ptr;
  return false;
}

/// The element size of a scalar access of type \p T, or 0 if the packed
/// layout cannot hold it (vectors, aggregates, sizes that are not whole
/// bytes, or larger than 8).
unsigned scalarSize(Type *T, const DataLayout &DL) {
  if (!T->isIntegerTy() && !T->isFloatingPointTy() && !T->isPointerTy())
    return 0;
  uint64_t Bits = DL.getTypeSizeInBits(T).getFixedValue();
  uint64_t Bytes = DL.getTypeAllocSize(T).getFixedValue();
  if (Bits != 8 * Bytes ||
      (Bytes != 1 && Bytes != 2 && Bytes != 4 && Bytes != 8))
    return 0;
  return Bytes;
}

/// True if \p GEP's byte offset is a multiple of \p S (a power of two).
bool offsetIsMultipleOf(GEPOperator &GEP, unsigned S, const DataLayout &DL) {
  unsigned Bits = DL.getIndexTypeSizeInBits(GEP.getType());
  MapVector<Value *, APInt> Variable;
  APInt Constant(Bits, 0);
  if (!GEP.collectOffset(DL, Bits, Variable, Constant) || Constant.srem(S) != 0)
    return false;
  // The index's known trailing zeros count too (an index shifted left, in
  // optimised IR).
  return none_of(Variable, [&](const auto &VO) {
    return VO.second.countr_zero() +
               computeKnownBits(VO.first, DL).countMinTrailingZeros() <
           Log2_32(S);
  });
}

/// True if byte count \p Len is a multiple of \p S (a power of two): by its
/// known bits, or as the distance between an address and one computed from
/// it by such offsets (a std::vector built from the range [x, x + n)).
bool lengthIsMultipleOf(Value *Len, unsigned S, const DataLayout &DL) {
  if (computeKnownBits(Len, DL).countMinTrailingZeros() >= Log2_32(S))
    return true;
  Value *End, *Begin;
  if (!match(Len, m_Sub(m_PtrToInt(m_Value(End)), m_PtrToInt(m_Value(Begin)))))
    return false;
  Value *Base = End;
  while (auto *GEP = dyn_cast<GEPOperator>(Base)) {
    if (!offsetIsMultipleOf(*GEP, S, DL))
      return false;
    Base = GEP->getPointerOperand();
  }
  return Base == Begin;
}

class Planner {
public:
  Planner(Function &P, const ActivityInfo &AI, const RuntimeActivity &RA)
      : P(P), AI(AI), RA(RA), DL(P.getParent()->getDataLayout()) {}

  PackedShadowPlan run();

private:
  /// The pointers computed from allocation \p A; false if one of them is
  /// used in a way the packed layout does not serve. Records the sizes
  /// accessed, the GEPs to check and the allocations met.
  bool collect(Instruction *A);
  bool checkUse(Instruction *A, Value *V, User *U,
                SmallVectorImpl<Value *> &Work);
  void access(Instruction *A, Type *T) {
    unsigned S = scalarSize(T, DL);
    if (!S)
      Bad.insert(A);
    Sizes[A].insert(S);
  }

  Function &P;
  const ActivityInfo &AI;
  const RuntimeActivity &RA;
  const DataLayout &DL;
  SmallSetVector<Instruction *, 8> Candidates;
  /// For each candidate: the pointers computed from it.
  DenseMap<Instruction *, SmallSetVector<Value *, 16>> Derived;
  DenseMap<Instruction *, SmallSetVector<unsigned, 2>> Sizes;
  DenseMap<Instruction *, SmallVector<GEPOperator *, 8>> GEPs;
  /// What phis and selects merge the candidate's pointers with: checked
  /// once every candidate's pointers are known.
  DenseMap<Instruction *, SmallVector<Value *, 4>> Meets;
  /// memsets of the candidate's blocks.
  DenseMap<Instruction *, SmallVector<MemSetInst *, 4>> Sets;
  /// Copies to or from the candidate's blocks, with their other end.
  DenseMap<Instruction *, SmallVector<std::pair<MemTransferInst *, Value *>, 4>>
      Copies;
  SmallPtrSet<Instruction *, 8> Bad;
};

PackedShadowPlan Planner::run() {
  for (Instruction &I : instructions(P)) {
    if (!AI.hasShadow(&I) || RA.mayBeConstant(&I))
      continue;
    if (auto *A = dyn_cast<AllocaInst>(&I)) {
      if (A->getAllocatedType()->isSized())
        Candidates.insert(A);
    } else if (auto *CB = dyn_cast<CallBase>(&I);
               CB && isPackableAllocator(*CB)) {
      Candidates.insert(CB);
    }
  }
  for (Instruction *A : Candidates)
    if (!collect(A))
      Bad.insert(A);

  // Allocations that meet (a phi of two blocks, a copy between them) are
  // one group: packed together or not at all, with one element size.
  DenseMap<const Value *, Instruction *> Owner;
  for (Instruction *A : Candidates)
    for (Value *V : Derived[A]) {
      auto [It, New] = Owner.try_emplace(V, A);
      (void)New;
      (void)It;
    }
  EquivalenceClasses<Instruction *> Groups;
  for (Instruction *A : Candidates) {
    Groups.insert(A);
    for (Value *V : Derived[A])
      if (Instruction *B = Owner.lookup(V))
        Groups.unionSets(A, B);
    for (Value *M : Meets[A]) {
      if (isa<ConstantPointerNull>(M))
        continue;
      if (Instruction *B = Owner.lookup(M))
        Groups.unionSets(A, B);
      else {
        LLVM_DEBUG(dbgs() << "tapestry: no packed shadow lanes for " << *A
                          << ": it meets " << *M << "\n");
        Bad.insert(A); // merged with other memory
      }
    }
    for (auto [MT, Other] : Copies[A])
      if (Instruction *B = Owner.lookup(Other))
        Groups.unionSets(A, B);
  }

  PackedShadowPlan Plan;
  for (auto It = Groups.begin(); It != Groups.end(); ++It) {
    if (!It->isLeader())
      continue;
    SmallSetVector<unsigned, 2> GroupSizes;
    bool Ok = true;
    for (auto MI = Groups.member_begin(It); MI != Groups.member_end(); ++MI) {
      Ok &= !Bad.count(*MI);
      GroupSizes.insert(Sizes[*MI].begin(), Sizes[*MI].end());
    }
    // One element size, used somewhere (a block only copied or set gains
    // nothing).
    if (!Ok || GroupSizes.size() != 1) {
      LLVM_DEBUG(dbgs() << "tapestry: no packed shadow lanes for the group of "
                        << *It->getData() << " (" << GroupSizes.size()
                        << " element sizes)\n");
      continue;
    }
    unsigned S = GroupSizes[0];
    // Every address offset a multiple of the element size.
    for (auto MI = Groups.member_begin(It); Ok && MI != Groups.member_end();
         ++MI)
      for (GEPOperator *GEP : GEPs[*MI])
        if (!offsetIsMultipleOf(*GEP, S, DL)) {
          LLVM_DEBUG(dbgs()
                     << "tapestry: no packed shadow lanes for the "
                        "group of "
                     << *It->getData() << ": offset of " << *GEP << "\n");
          Ok = false;
          break;
        }
    // Copies and sets move whole elements: part of an element's bytes
    // would be W parts of several elements' lanes.
    for (auto MI = Groups.member_begin(It); Ok && MI != Groups.member_end();
         ++MI) {
      SmallVector<MemIntrinsic *, 8> Ranges(Sets[*MI].begin(), Sets[*MI].end());
      for (auto [MT, Other] : Copies[*MI])
        Ranges.push_back(MT);
      for (MemIntrinsic *MI2 : Ranges)
        if (!lengthIsMultipleOf(MI2->getLength(), S, DL)) {
          LLVM_DEBUG(dbgs()
                     << "tapestry: no packed shadow lanes for the "
                        "group of "
                     << *It->getData() << ": the length of " << *MI2 << "\n");
          Ok = false;
          break;
        }
    }
    if (!Ok)
      continue;
    for (auto MI = Groups.member_begin(It); MI != Groups.member_end(); ++MI) {
      ++NumPackedAllocations;
      LLVM_DEBUG(dbgs() << "tapestry: packed shadow lanes (" << S
                        << "-byte elements) for " << **MI << "\n");
      for (Value *V : Derived[*MI])
        Plan.ElementSize[V] = S;
    }
  }
  return Plan;
}

bool Planner::collect(Instruction *A) {
  SmallVector<Value *, 16> Work{A};
  SmallSetVector<Value *, 16> &Seen = Derived[A];
  Seen.insert(A);
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    // (A pointer without a shadow of its own, an end pointer only
    // compared, still gets its packed shadow: what it is computed from or
    // merged with has one, and unused shadows are dropped.)
    if (RA.mayBeConstant(V) || RA.isMarker(V))
      return false;
    for (User *U : V->users())
      if (!checkUse(A, V, U, Work)) {
        LLVM_DEBUG(dbgs() << "tapestry: no packed shadow lanes for " << *A
                          << ": " << *U << "\n");
        return false;
      }
  }
  return true;
}

bool Planner::checkUse(Instruction *A, Value *V, User *U,
                       SmallVectorImpl<Value *> &Work) {
  auto Follow = [&](Value *D) {
    if (Derived[A].insert(D))
      Work.push_back(D);
  };
  if (auto *LI = dyn_cast<LoadInst>(U)) {
    if (LI->isAtomic() || LI->isVolatile())
      return false;
    // A loaded integer that becomes an address would need its shadow read
    // lane by lane.
    if (any_of(LI->users(),
               [](const User *LU) { return isa<IntToPtrInst>(LU); }))
      return false;
    access(A, LI->getType());
    return true;
  }
  if (auto *SI = dyn_cast<StoreInst>(U)) {
    if (SI->getValueOperand() == V || SI->isAtomic() || SI->isVolatile())
      return false;
    access(A, SI->getValueOperand()->getType());
    return true;
  }
  if (auto *GEP = dyn_cast<GetElementPtrInst>(U)) {
    if (GEP->getPointerOperand() != V || GEP->getType()->isVectorTy())
      return false;
    GEPs[A].push_back(cast<GEPOperator>(GEP));
    Follow(GEP);
    return true;
  }
  if (auto *Phi = dyn_cast<PHINode>(U)) {
    for (Value *In : Phi->incoming_values())
      Meets[A].push_back(In);
    Follow(Phi);
    return true;
  }
  if (auto *Sel = dyn_cast<SelectInst>(U)) {
    if (Sel->getCondition() == V ||
        Sel->getCondition()->getType()->isVectorTy())
      return false;
    Meets[A].push_back(Sel->getTrueValue());
    Meets[A].push_back(Sel->getFalseValue());
    Follow(Sel);
    return true;
  }
  if (isa<ICmpInst>(U))
    return true;
  // An address as an integer: fine for sizes and comparisons (a
  // std::vector's end - begin), not where it becomes an address again or
  // is stored (its shadow would be needed).
  if (auto *P2I = dyn_cast<PtrToIntInst>(U))
    return !P2I->getType()->isVectorTy() && !addressEscapesAsInteger(P2I);
  if (auto *II = dyn_cast<IntrinsicInst>(U)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::lifetime_start:
    case Intrinsic::lifetime_end:
      return true;
    case Intrinsic::memset:
      if (II->getArgOperand(0) != V || cast<MemSetInst>(II)->isVolatile())
        return false;
      Sets[A].push_back(cast<MemSetInst>(II));
      return true;
    case Intrinsic::memcpy:
    case Intrinsic::memmove: {
      auto *MT = cast<MemTransferInst>(II);
      if (MT->isVolatile())
        return false;
      // Another block of the function must be packed the same way: it
      // joins the group. Other memory (the caller's) is copied element by
      // element into or out of the lanes: whole elements only.
      Value *Other =
          MT->getRawDest() == V ? MT->getRawSource() : MT->getRawDest();
      if (RA.mayBeConstant(Other) || RA.isMarker(Other))
        return false;
      Copies[A].push_back({MT, Other});
      return true;
    }
    default:
      return false;
    }
  }
  if (auto *CB = dyn_cast<CallBase>(U))
    return isPackableDeallocator(*CB, V);
  return false;
}

} // namespace

PackedShadowPlan planPackedShadows(Function &P, const ActivityInfo &AI,
                                   const RuntimeActivity &RA, unsigned W) {
  if (W <= 1)
    return PackedShadowPlan();
  return Planner(P, AI, RA).run();
}

} // namespace tapestry
