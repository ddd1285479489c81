//===- RuntimeActivity.cpp - Pointers whose shadow may be themselves ------===//
//
// Implements RuntimeActivity.h: computeRuntimeActivity iterates to a fixed
// point over one function, starting from the argument masks its caller
// computed, collecting the stores and calls that may write a marker (a constant
// pointer standing for its own shadow, decided with Analysis/PointerFlow for
// callees) and the pointers that may read one back. Synthesis tests shadow ==
// primal at run time on exactly those pointers. With -debug-only=tapestry it
// traces each marker store and maybe-constant pointer it finds.
//
//===----------------------------------------------------------------------===//
#include "Analysis/RuntimeActivity.h"

#include "Analysis/PointerFlow.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Format.h"

#define DEBUG_TYPE "tapestry"

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

/// True if \p Arg is an argument and \p Obj an object its function creates
/// (a stack slot or a fresh allocation): the argument's value was fixed
/// before the object existed, so it cannot point into it, whatever the
/// function later does with the object's address.
static bool isArgumentAndLocalObject(const Value *Arg, const Value *Obj) {
  auto *A = dyn_cast<Argument>(Arg);
  auto *I = dyn_cast<Instruction>(Obj);
  return A && I && I->getFunction() == A->getParent() &&
         (isa<AllocaInst>(I) || isNoAliasCall(I));
}

bool mayShareObject(ArrayRef<const Value *> A, ArrayRef<const Value *> B) {
  for (const Value *X : A)
    for (const Value *Y : B) {
      if (X == Y)
        return true;
      bool XKnown = isIdentifiedObject(X), YKnown = isIdentifiedObject(Y);
      if (XKnown && YKnown)
        continue; // two distinct objects
      if (isArgumentAndLocalObject(X, Y) || isArgumentAndLocalObject(Y, X))
        continue;
      // A pointer of unknown origin (loaded, an argument) may point
      // anywhere except into a private object.
      if ((XKnown && isPrivateObject(X)) || (YKnown && isPrivateObject(Y)))
        continue;
      return true;
    }
  return false;
}

bool RuntimeActivity::mayReadMarker(const Value *Ptr) const {
  if (MarkedRoots.empty() && DeepMarkedPointers.empty())
    return false;
  SmallVector<const Value *, 4> R = roots(Ptr);
  return mayShareObject(R, MarkedRoots) || any_of(R, [&](const Value *V) {
           return is_contained(DeepMarkedPointers, V);
         });
}

/// The pointers that may be put into the local variable \p Obj: those its
/// function stores there, and those given to a call beside it (which may
/// store them there). False if its address is stored anywhere (then any
/// code may write it) or an integer as wide as a pointer is stored in it.
static bool pointersPutInLocal(const Value *Obj,
                               SmallVectorImpl<const Value *> &Vals) {
  const Function &F = *cast<Instruction>(Obj)->getFunction();
  auto Into = [&](const Value *Ptr) {
    return is_contained(rawRoots(Ptr), Obj);
  };
  for (const Instruction &I : instructions(F)) {
    if (auto *SI = dyn_cast<StoreInst>(&I)) {
      const Value *Val = SI->getValueOperand();
      if (Val->getType()->isPtrOrPtrVectorTy() && Into(Val))
        return false; // the address escapes
      if (!Into(SI->getPointerOperand()))
        continue;
      Type *T = Val->getType();
      if (T->isPtrOrPtrVectorTy())
        Vals.push_back(Val);
      else if (T->isIntOrIntVectorTy() && T->getScalarSizeInBits() >= 64)
        return false;
    } else if (auto *MT = dyn_cast<AnyMemTransferInst>(&I)) {
      if (Into(MT->getRawDest()))
        Vals.push_back(MT->getRawSource());
    } else if (auto *CB = dyn_cast<CallBase>(&I)) {
      if (CB->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(CB) ||
          none_of(CB->args(), [&](const Value *A) {
            return A->getType()->isPtrOrPtrVectorTy() && Into(A);
          }))
        continue;
      for (const Value *A : CB->args())
        if (A->getType()->isPtrOrPtrVectorTy() && !Into(A))
          Vals.push_back(A);
    }
  }
  return true;
}

bool RuntimeActivity::mayReachMarker(const Value *Ptr) const {
  if (MarkedRoots.empty() && DeepRoots.empty())
    return false;
  bool MarkedOnlyInUnstoredLocals =
      DeepRoots.empty() && all_of(MarkedRoots, [](const Value *M) {
        return (isa<AllocaInst>(M) || isNoAliasCall(M)) &&
               !PointerMayBeCaptured(M, /*ReturnCaptures=*/true,
                                     /*StoreCaptures=*/true);
      });
  SmallPtrSet<const Value *, 8> Seen;
  SmallVector<const Value *, 8> Work = {Ptr};
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    if (!Seen.insert(P).second)
      continue;
    if (mayReadMarker(P) || any_of(roots(P), [&](const Value *R) {
          return is_contained(DeepRoots, R);
        }))
      return true;
    // What the memory holds is known only for a private object: the
    // pointers this function stored there. Other memory may hold any
    // pointer, but not one to marked memory whose address never left
    // this function's hands.
    for (const Value *R : roots(P)) {
      SmallVector<const Value *, 4> Stored;
      if (isPrivateObject(R) && storedPointers(R, Stored))
        append_range(Work, Stored);
      else if (isa<AllocaInst>(R) && pointersPutInLocal(R, Stored))
        append_range(Work, Stored);
      else if (!MarkedOnlyInUnstoredLocals)
        return true;
    }
  }
  return false;
}

/// A pointer (or a vector of pointers, vectorised code) constant by request
/// (into an enzyme_const argument or a global, not loaded from memory) that
/// a shadowed merge needs a shadow for.
static bool isConstantPointer(const Value *V, const ActivityInfo &AI) {
  if (!V->getType()->isPtrOrPtrVectorTy() || AI.hasShadow(V) ||
      isa<ConstantPointerNull>(V) || isa<UndefValue>(V))
    return false;
  // Element addresses computed from one base (getelementptr ptr %c,
  // <4 x i64> %idx): the base's objects (getUnderlyingObjects does not
  // look through vectors).
  const Value *Base = V;
  while (Base->getType()->isVectorTy())
    if (auto *GEP = dyn_cast<GEPOperator>(Base))
      Base = GEP->getPointerOperand();
    else
      return false;
  return all_of(rawRoots(Base), [](const Value *R) {
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

/// True if the type \p T holds a floating-point or pointer value.
static bool holdsFloatOrPointer(Type *T) {
  if (T->isFPOrFPVectorTy() || T->isPtrOrPtrVectorTy())
    return true;
  if (auto *AT = dyn_cast<ArrayType>(T))
    return holdsFloatOrPointer(AT->getElementType());
  if (auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(), holdsFloatOrPointer);
  return false;
}

/// True if \p Ptr points into a constant global of integers (a string
/// literal; or one of several, cond ? "odd" : "even"): no derivative reads
/// or writes through its shadow.
static bool isConstantText(const Value *Ptr) {
  SmallVector<const Value *, 4> Roots = rawRoots(Ptr);
  return !Roots.empty() && all_of(Roots, [](const Value *R) {
    auto *GV = dyn_cast<GlobalVariable>(R);
    return GV && GV->isConstant() && !holdsFloatOrPointer(GV->getValueType());
  });
}

/// True if \p Ptr is the address of code or of what describes it: a
/// function, a virtual table, type information (their ABI names), or a
/// string literal. No derivative is read or written through it: calls
/// through such pointers dispatch on the pointer itself.
static bool isCodeOrText(const Value *Ptr) {
  if (isa<Function>(Ptr->stripPointerCasts()) || isConstantText(Ptr))
    return true;
  auto *GV = dyn_cast<GlobalVariable>(getUnderlyingObject(Ptr));
  return GV && (GV->getName().starts_with("_ZTV") ||
                GV->getName().starts_with("_ZTI") ||
                GV->getName().starts_with("_ZTS"));
}

/// A call differentiated on its own that is given a pointer without a
/// shadow (or one that may be constant) beside shadowed memory may store
/// that pointer there: its derivative writes the marker into the shadow,
/// and this function must test what it later reads there. Returns the
/// roots of the shadowed memory such a call may mark.
static SmallVector<const Value *, 4> markedByCall(const CallBase &CB,
                                                  const RuntimeActivity &RA,
                                                  const ActivityInfo &AI,
                                                  PointerFlowSummary &Flow) {
  SmallVector<const Value *, 4> Roots;
  const Function *Callee = CB.getCalledFunction();
  if (!Callee || Callee->isDeclaration())
    return Roots;
  PointerFlowSummary::Flow F = Flow.storesOut(*Callee);
  if (!F.Dest)
    return Roots;
  bool GivesConstant = any_of(CB.args(), [&](const Use &A) {
    return A->getType()->isPointerTy() && !isNullOrUndef(A) &&
           !isa<Function>(A->stripPointerCasts()) && !isConstantText(A) &&
           (!AI.hasShadow(A) || RA.mayBeConstant(A)) &&
           PointerFlowSummary::holds(F.Src, A.getOperandNo());
  });
  if (!GivesConstant)
    return Roots;
  for (const Use &A : CB.args())
    if (A->getType()->isPointerTy() && AI.hasShadow(A) &&
        PointerFlowSummary::holds(F.Dest, A.getOperandNo()))
      append_range(Roots, RA.roots(A));
  return Roots;
}

RuntimeActivity
computeRuntimeActivity(Function &F, const ActivityInfo &AI,
                       function_ref<bool(MemTransferInst &)> CopiesPointers,
                       uint64_t MaybeConstantArgs, uint64_t MarkedMemoryArgs,
                       uint64_t MarkedDeepArgs) {
  RuntimeActivity RA;
  LLVM_DEBUG({
    if (MaybeConstantArgs | MarkedMemoryArgs)
      dbgs() << "runtime activity: " << F.getName()
             << ": maybe-constant arguments 0x"
             << format_hex_no_prefix(MaybeConstantArgs, 1)
             << ", marked-memory arguments 0x"
             << format_hex_no_prefix(MarkedMemoryArgs, 1) << "\n";
  });
  for (Argument &A : F.args()) {
    unsigned I = A.getArgNo();
    if (I >= 64 || !A.getType()->isPointerTy() || !AI.hasShadow(&A))
      continue;
    if (MaybeConstantArgs >> I & 1)
      RA.MaybeConstant.insert(&A);
    if (MarkedMemoryArgs >> I & 1)
      RA.MarkedRoots.push_back(&A);
    if (MarkedDeepArgs >> I & 1)
      RA.DeepRoots.push_back(&A);
  }
  // An owner's old block read to be released: its shadow is the block
  // itself where the shadow global holds none.
  for (const Value *V : AI.OwnerReleaseReads)
    if (AI.hasShadow(V))
      RA.MaybeConstant.insert(V);
  auto WritesMarker = [&](const StoreInst &SI) {
    const Value *Val = SI.getValueOperand();
    if (!Val->getType()->isPtrOrPtrVectorTy() ||
        !AI.hasShadow(SI.getPointerOperand()) ||
        isa<ConstantPointerNull>(Val) || isa<UndefValue>(Val))
      return false; // null and undef are their own shadows
    return !AI.hasShadow(Val) || RA.mayBeConstant(Val);
  };
  PointerFlowSummary Flow;
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (Instruction &I : instructions(F)) {
      if (auto *SI = dyn_cast<StoreInst>(&I)) {
        if (!RA.MarkerStores.count(SI) && WritesMarker(*SI)) {
          RA.MarkerStores.insert(SI);
          LLVM_DEBUG(dbgs() << "runtime activity: " << F.getName()
                            << ": stores a marker: " << *SI << "\n");
          // A function's address (a std::function's manager and invoker, a
          // callback in a struct), a virtual table's (a shared_ptr's control
          // block) or a string literal's: no derivative goes through it, and
          // calls through it dispatch on the primal pointer. Its shadow is
          // still itself, but pointers read from that memory need no test.
          if (isCodeOrText(SI->getValueOperand()))
            continue;
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
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        for (const Value *R : markedByCall(*CB, RA, AI, Flow))
          if (!is_contained(RA.MarkedRoots, R)) {
            LLVM_DEBUG(dbgs()
                       << "runtime activity: " << F.getName()
                       << ": a call marks " << *R << ": " << *CB << "\n");
            RA.MarkedRoots.push_back(R);
            Changed = true;
          }
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
      // A pointer read from deeply marked memory points to such memory.
      if (!RA.DeepRoots.empty() && I.getType()->isPtrOrPtrVectorTy())
        if (const Value *From = pointerLoadAddress(I);
            From && !is_contained(RA.DeepRoots, &I) &&
            any_of(RA.roots(From), [&](const Value *R) {
              return is_contained(RA.DeepRoots, R);
            })) {
          RA.DeepRoots.push_back(&I);
          RA.DeepMarkedPointers.push_back(&I);
          Changed = true;
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
        LLVM_DEBUG(dbgs() << "runtime activity: " << F.getName()
                          << ": may be constant: " << I << "\n");
        RA.MaybeConstant.insert(&I);
        Changed = true;
      }
    }
  }
  return RA;
}

} // namespace tapestry
