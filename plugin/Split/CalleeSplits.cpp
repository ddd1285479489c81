//===- CalleeSplits.cpp - A split callee as its caller calls it -----------===//
//
// The wrappers of Split/CalleeSplits.h: each is a few calls around the
// callee's augmented forward, reverse and release, with the tape allocated
// (and freed) by the wrapper or linked into its call site's list. Under a
// one-shot request (CalleeSplit::Lifo) the tapes come from the thread's
// tape arena (Synthesis/TapeCache.h) instead of malloc: the one-shot
// caller's reverse gives its callee's tape back to the arena, and with it
// the tapes the callee's split kept for its own callees (their release
// frees what they own, not the tapes).
//
//===----------------------------------------------------------------------===//
#include "Split/CalleeSplits.h"

#include "Analysis/ParamAccess.h"
#include "Core/AllocationFunctions.h"
#include "Core/Batch.h"
#include "Synthesis/DerivativeSignature.h"
#include "Synthesis/TapeCache.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

/// Returns the wrapper's result: the tape, then the callee's primal result
/// and, if it returns one, its shadow (the split's augmented forward gives
/// {primal, shadow} then, DiffRequest::returnsShadow).
static void returnTapeAndResults(IRBuilderBase &B, Type *RetTy, Value *Tape,
                                 Value *Results) {
  if (RetTy->isPointerTy()) {
    B.CreateRet(Tape);
    return;
  }
  Value *Out = B.CreateInsertValue(PoisonValue::get(RetTy), Tape, 0);
  if (cast<StructType>(RetTy)->getNumElements() == 3) {
    Out = B.CreateInsertValue(Out, B.CreateExtractValue(Results, 0), 1);
    Out = B.CreateInsertValue(Out, B.CreateExtractValue(Results, 1), 2);
  } else {
    Out = B.CreateInsertValue(Out, Results, 1);
  }
  B.CreateRet(Out);
}

/// A callee's split as a split caller runs it (CalleeSplit::KeptAugmented):
/// made empty before the callee is differentiated (a recursive callee's
/// derivative calls them), filled by fillKeptCallee.
static void declareKeptCallee(CalleeSplit &CS, const std::string &Base) {
  Module &M = *CS.Augmented->getParent();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  FunctionType *AugTy = CS.Augmented->getFunctionType();
  SmallVector<Type *, 16> Params(AugTy->params());
  Params.push_back(Ptr);
  CS.KeptAugmented = Function::Create(
      FunctionType::get(AugTy->getReturnType(), Params, false),
      GlobalValue::InternalLinkage, Base + ".call.kept.fwd", M);
  CS.KeptAugmented->addParamAttr(Params.size() - 1, Attribute::NoCapture);
  CS.KeptReverse = Function::Create(CS.Reverse->getFunctionType(),
                                    GlobalValue::InternalLinkage,
                                    Base + ".call.kept.rev", M);
  CS.KeptRelease = Function::Create(
      FunctionType::get(Type::getVoidTy(C), {Ptr}, false),
      GlobalValue::InternalLinkage, Base + ".call.kept.release", M);
  CS.KeptRelease->addFnAttr(Attribute::NoUnwind);
}

/// The kept augmented forward puts each tape behind a 16-byte header (its
/// first word the next tape of the list) at the head of its call site's
/// list; the list's release walks it, releasing and freeing each tape.
/// Only heap addresses are stored: a derivative differentiated again (a
/// Hessian) follows them as it follows any linked list.
static void fillKeptCallee(CalleeSplit &CS, const SplitDerivative &S) {
  Module &M = *CS.Augmented->getParent();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  const uint64_t Header = CalleeSplit::KeptTapeHeaderBytes;
  {
    Function *Rel = CS.KeptRelease;
    BasicBlock *Entry = BasicBlock::Create(C, "entry", Rel);
    BasicBlock *Loop = BasicBlock::Create(C, "tape", Rel);
    BasicBlock *Done = BasicBlock::Create(C, "done", Rel);
    IRBuilder<> B(Entry);
    Value *First = Rel->getArg(0);
    B.CreateCondBr(B.CreateIsNull(First), Done, Loop);
    B.SetInsertPoint(Loop);
    PHINode *Node = B.CreatePHI(Ptr, 2, "node");
    Node->addIncoming(First, Entry);
    Value *Next = B.CreateLoad(Ptr, Node, "next");
    B.CreateCall(S.Release,
                 {B.CreateConstGEP1_64(B.getInt8Ty(), Node, Header, "tape")});
    // An arena tape goes back with the tape of the one-shot call it was
    // taken under.
    B.CreateCall(CS.Lifo ? getArenaForgetFn(M) : getFreeFn(M), {Node});
    Node->addIncoming(Next, Loop);
    B.CreateCondBr(B.CreateIsNull(Next), Done, Loop);
    B.SetInsertPoint(Done);
    B.CreateRetVoid();
  }
  Function *Aug = CS.KeptAugmented;
  unsigned NumParams = Aug->arg_size();
  IRBuilder<> B(BasicBlock::Create(C, "entry", Aug));
  Value *List = Aug->getArg(NumParams - 1);
  Value *Block = B.CreateCall(CS.Lifo ? getArenaAllocFn(M) : getMallocFn(M),
                              {B.getInt64(S.TapeBytes + Header)}, "block");
  B.CreateStore(B.CreateLoad(Ptr, List), Block);
  B.CreateStore(Block, List);
  Value *Tape = B.CreateConstGEP1_64(B.getInt8Ty(), Block, Header, "tape");
  SmallVector<Value *, 16> Args;
  for (unsigned I = 0; I + 1 < NumParams; ++I)
    Args.push_back(Aug->getArg(I));
  Args.push_back(Tape);
  returnTapeAndResults(B, Aug->getReturnType(), Tape,
                       B.CreateCall(S.Augmented, Args));
  // The callee's own reverse: the stub that stood for it while the callee
  // was built goes.
  CS.KeptReverse->replaceAllUsesWith(S.Reverse);
  CS.KeptReverse->eraseFromParent();
  CS.KeptReverse = S.Reverse;
}

/// True if \p F, a split's release, may free memory that does not come
/// from the thread's arena: it calls, directly or through functions with a
/// body, anything but the arena's forget (free, operator delete, a function
/// without a body yet: the release of a callee still being built).
static bool releasesHeap(Function &F, SmallPtrSetImpl<Function *> &Seen) {
  if (!Seen.insert(&F).second)
    return false;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || isa<IntrinsicInst>(CB))
        continue;
      Function *Callee = CB->getCalledFunction();
      if (!Callee || Callee->isDeclaration())
        return true;
      if (Callee->getName() != "tapestry.arena.forget" &&
          releasesHeap(*Callee, Seen))
        return true;
    }
  return false;
}

static bool releasesHeap(Function &F) {
  SmallPtrSet<Function *, 8> Seen;
  return releasesHeap(F, Seen);
}

CalleeSplit declareCalleeSplit(const DiffRequest &R) {
  Module &M = *R.Fn->getParent();
  LLVMContext &C = M.getContext();
  DerivativeSignature Sig = computeSignature(R);
  Type *Ptr = PointerType::getUnqual(C);
  Type *RetTy = R.Fn->getReturnType();
  SmallVector<Type *, 16> AugParams;
  for (unsigned I = 0; I < Sig.Type->getNumParams(); ++I)
    if ((int)I != Sig.SeedArg)
      AugParams.push_back(Sig.Type->getParamType(I));
  Type *AugRet =
      RetTy->isVoidTy() ? Ptr
      : R.returnsShadow()
          ? StructType::get(C, {Ptr, RetTy, batchType(RetTy, R.Width)})
          : StructType::get(C, {Ptr, RetTy});
  std::string Base = (R.Fn->getName() + ".tapestry." + R.suffix()).str();
  CalleeSplit CS;
  CS.Lifo = R.LifoTapes;
  CS.Augmented =
      Function::Create(FunctionType::get(AugRet, AugParams, false),
                       GlobalValue::InternalLinkage, Base + ".call.fwd", M);
  SmallVector<Type *, 16> RevParams(Sig.Type->params());
  RevParams.push_back(Ptr);
  CS.Reverse = Function::Create(
      FunctionType::get(Sig.Type->getReturnType(), RevParams, false),
      GlobalValue::InternalLinkage, Base + ".call.rev", M);
  declareKeptCallee(CS, Base);
  return CS;
}

void discardCalleeSplit(CalleeSplit &CS) {
  for (Function *F : {CS.Augmented, CS.Reverse, CS.KeptAugmented,
                      CS.KeptReverse, CS.KeptRelease}) {
    F->replaceAllUsesWith(PoisonValue::get(F->getType()));
    F->eraseFromParent();
  }
  CS = CalleeSplit();
}

void defineCalleeSplit(CalleeSplit &CS, const SplitDerivative &S) {
  Module &M = *CS.Augmented->getParent();
  LLVMContext &C = M.getContext();
  Type *AugRet = CS.Augmented->getReturnType();
  {
    IRBuilder<> B(BasicBlock::Create(C, "entry", CS.Augmented));
    Value *Tape = B.CreateCall(CS.Lifo ? getArenaAllocFn(M) : getMallocFn(M),
                               {B.getInt64(S.TapeBytes)}, "tape");
    SmallVector<Value *, 16> Args;
    for (Argument &A : CS.Augmented->args())
      Args.push_back(&A);
    Args.push_back(Tape);
    returnTapeAndResults(B, AugRet, Tape, B.CreateCall(S.Augmented, Args));
  }
  // The release runs the kept tapes' releases, which the one-shot
  // reverse needs to know about.
  fillKeptCallee(CS, S);
  {
    IRBuilder<> B(BasicBlock::Create(C, "entry", CS.Reverse));
    SmallVector<Value *, 16> Args;
    for (Argument &A : CS.Reverse->args())
      Args.push_back(&A);
    Value *Tape = Args.back();
    Value *Adjoints = B.CreateCall(S.Reverse, Args);
    if (CS.Lifo && !releasesHeap(*S.Release)) {
      // Everything the release would free comes from the arena and goes
      // back with the reset below: the release (a walk over the tapes of
      // the whole recursion) runs only where the arena's calls become
      // malloc and free again, in a derivative that is differentiated
      // (uncacheTapes).
      BasicBlock *Release = BasicBlock::Create(C, "release", CS.Reverse);
      BasicBlock *Reset = BasicBlock::Create(C, "reset", CS.Reverse);
      B.CreateCondBr(B.CreateCall(getArenaNestedFn(M)), Release, Reset);
      B.SetInsertPoint(Release);
      B.CreateCall(S.Release, {Tape});
      B.CreateBr(Reset);
      B.SetInsertPoint(Reset);
    } else {
      B.CreateCall(S.Release, {Tape});
    }
    // The arena's tapes taken after this one (the callee's callees' tapes)
    // go back with it.
    B.CreateCall(CS.Lifo ? getArenaResetFn(M) : getFreeFn(M), {Tape});
    if (CS.Reverse->getReturnType()->isVoidTy())
      B.CreateRetVoid();
    else
      B.CreateRet(Adjoints);
  }
  // What the halves do with the callers' addresses decides whether the
  // callers' tapes can be replayed (Split/TapeLayout.cpp, classifySlot):
  // callees first.
  for (Function *F :
       {S.Augmented, S.Reverse, S.Release, CS.Augmented, CS.Reverse,
        CS.KeptAugmented, CS.KeptReverse, CS.KeptRelease})
    if (F)
      inferParamAccess(*F);
  if (!S.Replayable)
    CS.NotReplayable =
        "whose own tape is not reusable (" + S.NotReplayableReason + ")";
}

} // namespace tapestry
