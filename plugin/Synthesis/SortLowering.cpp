//===- SortLowering.cpp - qsort as a permutation AD can follow ------------===//
//
// Implements SortLowering.h: lowerQsort rewrites each qsort and qsort_r call of
// a prepared primal into a call of tapestry.qsort.perm (an internal function,
// written once per module, that sorts indices with the user's comparator) and
// element copies in that order. Primal preparation calls it; the copies are
// then differentiated like any other memcpy.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/SortLowering.h"

#include "Core/AllocationFunctions.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

static FunctionCallee libFn(Module &M, StringRef Name, Type *Ret,
                            ArrayRef<Type *> Params) {
  return M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
}

/// Emits `for (i = 0; i < N; ++i) Body(i)` at \p B's insertion point and
/// leaves \p B after the loop. The insertion point is either the end of a
/// block without terminator or before an instruction. (LLVM's
/// SplitBlockAndInsertSimpleForLoop assumes at least one trip; a sort of
/// zero elements has none.)
static void emitLoop(IRBuilder<> &B, Value *N, const Twine &Name,
                     function_ref<void(IRBuilder<> &, Value *)> Body) {
  BasicBlock *Pre = B.GetInsertBlock();
  Function *F = Pre->getParent();
  LLVMContext &C = F->getContext();
  BasicBlock *Tail;
  if (B.GetInsertPoint() == Pre->end()) {
    Tail = BasicBlock::Create(C, Name + ".end", F);
  } else {
    Tail = Pre->splitBasicBlock(B.GetInsertPoint(), Name + ".end");
    Pre->getTerminator()->eraseFromParent();
  }
  BasicBlock *Loop = BasicBlock::Create(C, Name, F, Tail);
  B.SetInsertPoint(Pre);
  Value *Zero = ConstantInt::get(N->getType(), 0);
  B.CreateCondBr(B.CreateICmpULT(Zero, N), Loop, Tail);
  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(N->getType(), 2, Name + ".i");
  I->addIncoming(Zero, Pre);
  Body(B, I);
  Value *Next = B.CreateAdd(I, ConstantInt::get(N->getType(), 1));
  I->addIncoming(Next, B.GetInsertBlock());
  B.CreateCondBr(B.CreateICmpULT(Next, N), Loop, Tail);
  B.SetInsertPoint(Tail, Tail->begin());
}

/// ptr @tapestry.qsort.perm(ptr base, i64 n, i64 size, ptr cmp): a fresh
/// array of n i64, the index in base of each element of the sorted array.
/// The elements are sorted by the library's qsort with the user's
/// comparator, each followed by its index in a slot of its own (the
/// comparator reads only the element's first size bytes). For qsort_r
/// (glibc's argument order), @tapestry.qsort_r.perm takes the comparator's
/// extra argument last.
static Function *getSortPermutationFn(Module &M, bool WithArg) {
  StringRef Name = WithArg ? "tapestry.qsort_r.perm" : "tapestry.qsort.perm";
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  SmallVector<Type *, 5> Params{Ptr, I64, I64, Ptr};
  if (WithArg)
    Params.push_back(Ptr);
  Function *F = Function::Create(FunctionType::get(Ptr, Params, false),
                                 GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoInline);
  Value *Base = F->getArg(0), *N = F->getArg(1), *Size = F->getArg(2);
  Value *Cmp = F->getArg(3);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  FunctionCallee Malloc = getMallocFn(M);
  // Element, then its index, in a 16-byte aligned slot.
  Value *Stride = B.CreateAnd(B.CreateAdd(Size, B.getInt64(8 + 15)),
                              B.getInt64(~uint64_t(15)), "stride");
  Value *Pairs = B.CreateCall(Malloc, {B.CreateMul(N, Stride)}, "pairs");
  auto IndexSlot = [&](IRBuilder<> &LB, Value *I) {
    Value *Slot = LB.CreateGEP(LB.getInt8Ty(), Pairs, LB.CreateMul(I, Stride));
    return LB.CreateGEP(LB.getInt8Ty(), Slot,
                        LB.CreateSub(Stride, LB.getInt64(8)));
  };
  emitLoop(B, N, "pack", [&](IRBuilder<> &LB, Value *I) {
    LB.CreateMemCpy(
        LB.CreateGEP(LB.getInt8Ty(), Pairs, LB.CreateMul(I, Stride)),
        MaybeAlign(16),
        LB.CreateGEP(LB.getInt8Ty(), Base, LB.CreateMul(I, Size)),
        MaybeAlign(1), Size);
    LB.CreateAlignedStore(I, IndexSlot(LB, I), Align(8));
  });
  if (WithArg)
    B.CreateCall(libFn(M, "qsort_r", B.getVoidTy(), {Ptr, I64, I64, Ptr, Ptr}),
                 {Pairs, N, Stride, Cmp, F->getArg(4)});
  else
    B.CreateCall(libFn(M, "qsort", B.getVoidTy(), {Ptr, I64, I64, Ptr}),
                 {Pairs, N, Stride, Cmp});
  Value *Perm = B.CreateCall(
      Malloc,
      {B.CreateMul(B.CreateBinaryIntrinsic(Intrinsic::umax, N, B.getInt64(1)),
                   B.getInt64(8))},
      "perm");
  emitLoop(B, N, "unpack", [&](IRBuilder<> &LB, Value *I) {
    LB.CreateAlignedStore(LB.CreateAlignedLoad(I64, IndexSlot(LB, I), Align(8)),
                          LB.CreateGEP(I64, Perm, I), Align(8));
  });
  B.CreateCall(getFreeFn(M), {Pairs});
  B.CreateRet(Perm);
  return F;
}

/// The type the comparator's argument \p A points to, from how the
/// comparator reads it: every use of \p A (or, at -O0, of the local it is
/// kept in) is a load of that type, or passes it on to another comparator
/// with a body that does the same. Null when a use is anything else (an
/// offset into a struct, a call to an unknown function): the elements'
/// type is then unknown here.
static bool pointeeType(Argument *A, Type *&T, unsigned Depth) {
  Function *Fn = A->getParent();
  if (Depth > 3 || Fn->isDeclaration())
    return false;
  SmallVector<Value *, 4> Holders{A};
  for (User *U : A->users()) {
    auto *SI = dyn_cast<StoreInst>(U);
    auto *Local = SI ? dyn_cast<AllocaInst>(SI->getPointerOperand()) : nullptr;
    if (!Local || SI->getValueOperand() != A)
      continue;
    // The local holds A if A is all that is ever stored to it.
    for (User *V : Local->users()) {
      if (auto *LI = dyn_cast<LoadInst>(V))
        Holders.push_back(LI);
      else if (V != SI)
        return false;
    }
  }
  for (Value *H : Holders)
    for (Use &U : H->uses()) {
      User *V = U.getUser();
      if (auto *LI = dyn_cast<LoadInst>(V)) {
        if (T && T != LI->getType())
          return false;
        T = LI->getType();
        continue;
      }
      if (auto *SI = dyn_cast<StoreInst>(V))
        if (H == A && SI->getValueOperand() == A &&
            isa<AllocaInst>(SI->getPointerOperand()))
          continue; // the -O0 local, handled above
      auto *CB = dyn_cast<CallBase>(V);
      Function *Callee = CB ? CB->getCalledFunction() : nullptr;
      if (!Callee || !CB->isArgOperand(&U) ||
          CB->getArgOperandNo(&U) >= Callee->arg_size() ||
          !pointeeType(Callee->getArg(CB->getArgOperandNo(&U)), T, Depth + 1))
        return false;
    }
  return true;
}

/// The floating-point type of the elements \p Cmp compares when it reads
/// both of its arguments as that type and nothing else; null otherwise.
static Type *comparedFloatType(Value *Cmp) {
  auto *Fn = dyn_cast<Function>(Cmp->stripPointerCasts());
  if (!Fn || Fn->isDeclaration() || Fn->arg_size() < 2)
    return nullptr;
  Type *T = nullptr;
  if (!pointeeType(Fn->getArg(0), T, 0) || !pointeeType(Fn->getArg(1), T, 0))
    return nullptr;
  return T && T->isFloatingPointTy() ? T : nullptr;
}

void lowerQsort(Function &F) {
  SmallVector<CallBase *, 2> Sorts;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (Function *Callee = CB->getCalledFunction())
        if (((Callee->getName() == "qsort" && CB->arg_size() == 4) ||
             (Callee->getName() == "qsort_r" && CB->arg_size() == 5)) &&
            CB->getType()->isVoidTy())
          Sorts.push_back(CB);
  Module &M = *F.getParent();
  for (CallBase *CB : Sorts) {
    bool WithArg = CB->arg_size() == 5;
    IRBuilder<> B(CB);
    Type *I64 = B.getInt64Ty(), *I8 = B.getInt8Ty();
    Value *Base = CB->getArgOperand(0);
    Value *N = B.CreateZExtOrTrunc(CB->getArgOperand(1), I64);
    Value *Size = B.CreateZExtOrTrunc(CB->getArgOperand(2), I64);
    SmallVector<Value *, 5> PermArgs{Base, N, Size, CB->getArgOperand(3)};
    if (WithArg)
      PermArgs.push_back(CB->getArgOperand(4));
    Value *Perm =
        B.CreateCall(getSortPermutationFn(M, WithArg), PermArgs, "qsort.perm");
    Value *Bytes = B.CreateMul(N, Size);
    Value *Tmp = B.CreateCall(getMallocFn(M), {Bytes}, "qsort.tmp");
    // Elements the comparator reads as one floating-point type (and of its
    // size) move as that type: the array may be read nowhere else, and an
    // untyped copy of memory whose type nothing says cannot be
    // differentiated.
    const DataLayout &DL = M.getDataLayout();
    Type *Elt = comparedFloatType(CB->getArgOperand(3));
    auto *ConstSize = dyn_cast<ConstantInt>(Size);
    if (Elt &&
        (!ConstSize || DL.getTypeStoreSize(Elt) != DL.getTypeAllocSize(Elt) ||
         ConstSize->getZExtValue() != DL.getTypeAllocSize(Elt)))
      Elt = nullptr;
    auto Move = [&](IRBuilder<> &LB, Value *To, Value *I, Value *From,
                    Value *J) {
      if (Elt)
        LB.CreateStore(LB.CreateLoad(Elt, LB.CreateGEP(Elt, From, J)),
                       LB.CreateGEP(Elt, To, I));
      else
        LB.CreateMemCpy(
            LB.CreateGEP(I8, To, LB.CreateMul(I, Size)), MaybeAlign(),
            LB.CreateGEP(I8, From, LB.CreateMul(J, Size)), MaybeAlign(), Size);
    };
    if (Elt)
      emitLoop(B, N, "qsort.save",
               [&](IRBuilder<> &LB, Value *I) { Move(LB, Tmp, I, Base, I); });
    else
      B.CreateMemCpy(Tmp, MaybeAlign(), Base, MaybeAlign(), Bytes);
    emitLoop(B, N, "qsort.move", [&](IRBuilder<> &LB, Value *I) {
      Value *From =
          LB.CreateAlignedLoad(I64, LB.CreateGEP(I64, Perm, I), Align(8));
      Move(LB, Base, I, Tmp, From);
    });
    FunctionCallee Free = getFreeFn(M);
    B.CreateCall(Free, {Tmp});
    B.CreateCall(Free, {Perm});
    CB->eraseFromParent();
  }
}

} // namespace tapestry
