//===- RuntimeActivity.cpp - Pointers whose shadow may be themselves ------===//
#include "Analysis/RuntimeActivity.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace tapestry {

/// The underlying objects of \p V, through phis and selects.
static SmallVector<const Value *, 4> rawRoots(const Value *V) {
  SmallVector<const Value *, 4> Roots;
  getUnderlyingObjects(V, Roots, /*LI=*/nullptr, /*MaxLookup=*/0);
  return Roots;
}

/// True if every object \p Ptr may point to is null or undefined.
static bool isNullOrUndef(const Value *Ptr) {
  return all_of(rawRoots(Ptr), [](const Value *R) {
    return isa<ConstantPointerNull>(R) || isa<UndefValue>(R);
  });
}

/// A function-local object no other pointer can reach: an alloca or fresh
/// allocation whose address is never stored, passed on or converted.
static bool isPrivateObject(const Value *V) {
  if (!isa<AllocaInst>(V) && !isNoAliasCall(V))
    return false;
  return !PointerMayBeCaptured(V, /*ReturnCaptures=*/true,
                               /*StoreCaptures=*/true);
}

/// The pointers this function stores into the private object \p Obj, or
/// false if something else may write pointers there (a copy, a call, an
/// integer as wide as a pointer).
static bool storedPointers(const Value *Obj,
                           SmallVectorImpl<const Value *> &Vals) {
  const Function &F = *cast<Instruction>(Obj)->getFunction();
  for (const Instruction &I : instructions(F)) {
    if (!I.mayWriteToMemory())
      continue;
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
        continue;
    if (auto *SI = dyn_cast<StoreInst>(&I)) {
      if (!is_contained(rawRoots(SI->getPointerOperand()), Obj))
        continue;
      Type *T = SI->getValueOperand()->getType();
      if (T->isPointerTy())
        Vals.push_back(SI->getValueOperand());
      else if (!T->isFPOrFPVectorTy() &&
               !(T->isIntegerTy() && T->getIntegerBitWidth() < 64))
        return false;
      continue;
    }
    // Only pointers computed from the object reach it.
    for (const Value *Op : I.operands())
      if (Op->getType()->isPtrOrPtrVectorTy() &&
          is_contained(rawRoots(Op), Obj))
        return false;
  }
  return true;
}

const SmallVector<const Value *, 4> &
RuntimeActivity::roots(const Value *V) const {
  auto It = RootCache.find(V);
  if (It != RootCache.end())
    return It->second;
  SmallVector<const Value *, 4> Out;
  SmallPtrSet<const Value *, 8> Seen;
  resolveRoots(V, Out, Seen, 0);
  return RootCache[V] = Out;
}

/// A pointer loaded from private memory is one of the pointers this
/// function stored there: its roots are theirs.
void RuntimeActivity::resolveRoots(const Value *V,
                                   SmallVectorImpl<const Value *> &Out,
                                   SmallPtrSetImpl<const Value *> &Seen,
                                   unsigned Depth) const {
  for (const Value *R : rawRoots(V)) {
    SmallVector<const Value *, 4> Stored;
    auto *L = dyn_cast<LoadInst>(R);
    bool Resolved = L && Depth < 4;
    if (Resolved)
      for (const Value *O : rawRoots(L->getPointerOperand()))
        Resolved = Resolved && isPrivateObject(O) && storedPointers(O, Stored);
    if (!Resolved) {
      // A null pointer points to no memory.
      if (!isa<ConstantPointerNull>(R) && !isa<UndefValue>(R) &&
          !is_contained(Out, R))
        Out.push_back(R);
      continue;
    }
    if (Seen.insert(L).second)
      for (const Value *S : Stored)
        resolveRoots(S, Out, Seen, Depth + 1);
  }
}

bool mayShareObject(ArrayRef<const Value *> A, ArrayRef<const Value *> B) {
  for (const Value *X : A)
    for (const Value *Y : B) {
      if (X == Y)
        return true;
      bool XKnown = isIdentifiedObject(X), YKnown = isIdentifiedObject(Y);
      if (XKnown && YKnown)
        continue; // two distinct objects
      // A pointer of unknown origin (loaded, an argument) may point
      // anywhere except into a private object.
      if ((XKnown && isPrivateObject(X)) || (YKnown && isPrivateObject(Y)))
        continue;
      return true;
    }
  return false;
}

bool RuntimeActivity::mayReadMarker(const Value *Ptr) const {
  return !MarkedRoots.empty() && mayShareObject(roots(Ptr), MarkedRoots);
}

/// A pointer constant by request (into an enzyme_const argument or a
/// global, not loaded from memory) that a shadowed merge needs a shadow for.
static bool isConstantPointer(const Value *V, const ActivityInfo &AI) {
  if (!V->getType()->isPointerTy() || AI.hasShadow(V) ||
      isa<ConstantPointerNull>(V) || isa<UndefValue>(V))
    return false;
  return all_of(rawRoots(V), [](const Value *R) {
    return isa<Argument>(R) || isa<GlobalVariable>(R);
  });
}

/// The address (or vector of addresses) \p I reads pointers from: a load,
/// or a masked load or gather of pointers (vectorised code), else null.
static const Value *pointerLoadAddress(const Instruction &I) {
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return LI->getPointerOperand();
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    if (II->getIntrinsicID() == Intrinsic::masked_load ||
        II->getIntrinsicID() == Intrinsic::masked_gather)
      return II->getArgOperand(0);
  return nullptr;
}

/// True if \p V derives its address from an operand that may carry a
/// marker (address arithmetic, casts, merges).
static bool derivesFrom(const Instruction &I, RuntimeActivity &RA,
                        const ActivityInfo &AI) {
  // A constant pointer merged with shadowed ones is its own shadow.
  if (isa<PHINode>(I) || isa<SelectInst>(I)) {
    bool Any = false;
    for (const Value *Op : I.operands())
      if (isConstantPointer(Op, AI)) {
        RA.Markers.insert(Op);
        Any = true;
      }
    if (Any)
      return true;
  }
  if (auto *GEP = dyn_cast<GetElementPtrInst>(&I))
    return RA.mayBeConstant(GEP->getPointerOperand());
  // Vectors of pointers: a lane moved from one that may be constant may be.
  if (isa<PHINode>(I) || isa<SelectInst>(I) || isa<CastInst>(I) ||
      isa<FreezeInst>(I) || isa<InsertElementInst>(I) ||
      isa<ExtractElementInst>(I) || isa<ShuffleVectorInst>(I))
    return any_of(I.operands(),
                  [&](const Use &U) { return RA.mayBeConstant(U.get()); });
  return false;
}

RuntimeActivity
computeRuntimeActivity(Function &F, const ActivityInfo &AI,
                       function_ref<bool(MemTransferInst &)> CopiesPointers) {
  RuntimeActivity RA;
  auto WritesMarker = [&](const StoreInst &SI) {
    const Value *Val = SI.getValueOperand();
    if (!Val->getType()->isPtrOrPtrVectorTy() ||
        !AI.hasShadow(SI.getPointerOperand()) ||
        isa<ConstantPointerNull>(Val) || isa<UndefValue>(Val))
      return false; // null and undef are their own shadows
    return !AI.hasShadow(Val) || RA.mayBeConstant(Val);
  };
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (Instruction &I : instructions(F)) {
      if (auto *SI = dyn_cast<StoreInst>(&I)) {
        if (!RA.MarkerStores.count(SI) && WritesMarker(*SI)) {
          RA.MarkerStores.insert(SI);
          for (const Value *R : RA.roots(SI->getPointerOperand()))
            if (!is_contained(RA.MarkedRoots, R))
              RA.MarkedRoots.push_back(R);
          Changed = true;
        }
        continue;
      }
      // A masked store or scatter of pointers (vectorised code) writes
      // markers where a lane may be constant.
      if (auto *II = dyn_cast<IntrinsicInst>(&I);
          II && (II->getIntrinsicID() == Intrinsic::masked_store ||
                 II->getIntrinsicID() == Intrinsic::masked_scatter)) {
        const Value *Val = II->getArgOperand(0), *Ptr = II->getArgOperand(1);
        if (Val->getType()->isPtrOrPtrVectorTy() && AI.hasShadow(Ptr) &&
            !isa<UndefValue>(Val) &&
            !(isa<Constant>(Val) && cast<Constant>(Val)->isNullValue()) &&
            (!AI.hasShadow(Val) || RA.mayBeConstant(Val)))
          for (const Value *R : RA.roots(Ptr))
            if (!is_contained(RA.MarkedRoots, R)) {
              RA.MarkedRoots.push_back(R);
              Changed = true;
            }
        continue;
      }
      // Copies of marked memory hold markers too. A copy from null (what
      // realloc from a null pointer becomes) copies nothing.
      if (auto *MT = dyn_cast<MemTransferInst>(&I)) {
        if (AI.hasShadow(MT->getDest()) && !isNullOrUndef(MT->getSource()) &&
            (AI.hasShadow(MT->getSource()) ? RA.mayReadMarker(MT->getSource())
                                           : CopiesPointers(*MT)))
          for (const Value *R : RA.roots(MT->getDest()))
            if (!is_contained(RA.MarkedRoots, R)) {
              RA.MarkedRoots.push_back(R);
              Changed = true;
            }
        continue;
      }
      if (!I.getType()->isPtrOrPtrVectorTy() || !AI.hasShadow(&I) ||
          RA.mayBeConstant(&I))
        continue;
      bool Maybe = false;
      if (const Value *From = pointerLoadAddress(I))
        Maybe = RA.mayBeConstant(From) || RA.mayReadMarker(From);
      else
        Maybe = derivesFrom(I, RA, AI);
      if (Maybe) {
        RA.MaybeConstant.insert(&I);
        Changed = true;
      }
    }
  }
  return RA;
}

} // namespace tapestry
