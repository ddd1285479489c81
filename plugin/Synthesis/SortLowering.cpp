//===- SortLowering.cpp ---------------------------------------------------===//
#include "Synthesis/SortLowering.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
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
  FunctionCallee Malloc = libFn(M, "malloc", Ptr, {I64});
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
  B.CreateCall(libFn(M, "free", B.getVoidTy(), {Ptr}), {Pairs});
  B.CreateRet(Perm);
  return F;
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
    Type *Ptr = B.getPtrTy(), *I64 = B.getInt64Ty(), *I8 = B.getInt8Ty();
    Value *Base = CB->getArgOperand(0);
    Value *N = B.CreateZExtOrTrunc(CB->getArgOperand(1), I64);
    Value *Size = B.CreateZExtOrTrunc(CB->getArgOperand(2), I64);
    SmallVector<Value *, 5> PermArgs{Base, N, Size, CB->getArgOperand(3)};
    if (WithArg)
      PermArgs.push_back(CB->getArgOperand(4));
    Value *Perm =
        B.CreateCall(getSortPermutationFn(M, WithArg), PermArgs, "qsort.perm");
    Value *Bytes = B.CreateMul(N, Size);
    Value *Tmp =
        B.CreateCall(libFn(M, "malloc", Ptr, {I64}), {Bytes}, "qsort.tmp");
    B.CreateMemCpy(Tmp, MaybeAlign(), Base, MaybeAlign(), Bytes);
    emitLoop(B, N, "qsort.move", [&](IRBuilder<> &LB, Value *I) {
      Value *From =
          LB.CreateAlignedLoad(I64, LB.CreateGEP(I64, Perm, I), Align(8));
      LB.CreateMemCpy(
          LB.CreateGEP(I8, Base, LB.CreateMul(I, Size)), MaybeAlign(),
          LB.CreateGEP(I8, Tmp, LB.CreateMul(From, Size)), MaybeAlign(), Size);
    });
    FunctionCallee Free = libFn(M, "free", B.getVoidTy(), {Ptr});
    B.CreateCall(Free, {Tmp});
    B.CreateCall(Free, {Perm});
    CB->eraseFromParent();
  }
}

} // namespace tapestry
