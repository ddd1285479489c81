//===- Thunks.cpp - Split mode's constant descriptors ---------------------===//
//
// The descriptor of Split/Thunks.h, its reverse wrapper and, for splits
// that use implicit shadows of globals, its augmented forward's wrapper.
//
//===----------------------------------------------------------------------===//
#include "Split/Thunks.h"

#include "Analysis/GlobalShadows.h"
#include "Synthesis/FreedShadows.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

Constant *thunkDescriptor(Module &M, const DiffRequest &R,
                          const SplitDerivative &S) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  auto *Ty = StructType::get(
      C, {Ptr, Ptr, Ptr, Type::getInt64Ty(C), Type::getInt32Ty(C)});
  std::string Name =
      (R.Fn->getName() + ".tapestry." + R.suffix() + ".thunk").str();
  if (GlobalVariable *Old = M.getNamedGlobal(Name))
    return Old;
  // C callers cannot rely on how a struct of adjoints is returned (the C
  // ABI returns some in registers, others through memory): the thunk's
  // reverse writes them to a buffer its last argument points to.
  SmallVector<Type *, 16> Params(S.Reverse->getFunctionType()->params());
  Params.push_back(Ptr);
  Function *Rev =
      Function::Create(FunctionType::get(Type::getVoidTy(C), Params, false),
                       GlobalValue::InternalLinkage, Name + ".reverse", M);
  {
    IRBuilder<> B(BasicBlock::Create(C, "entry", Rev));
    SmallVector<Value *, 16> Args;
    for (unsigned I = 0; I + 1 < Rev->arg_size(); ++I)
      Args.push_back(Rev->getArg(I));
    CallInst *Adjoints = B.CreateCall(S.Reverse, Args);
    if (!Adjoints->getType()->isVoidTy())
      B.CreateStore(Adjoints, Rev->getArg(Rev->arg_size() - 1));
    B.CreateRetVoid();
  }
  // A split using implicit shadows of globals starts each tape from no
  // derivative of them, as a request's call site does: its augmented
  // forward is wrapped to zero them first.
  Function *Aug = S.Augmented;
  // The shadows of the caller's blocks the augmented forward frees are the
  // tape's until it is released (Synthesis/FreedShadows.h): the wrapper
  // tags them with the tape, and the release checks and frees them.
  unsigned Depth = R.FreedListDepth;
  bool Freed = listsFreedShadows(M, Depth);
  if (Freed || !GlobalShadows::implicitShadowsUsedBy(*S.Augmented).empty() ||
      !GlobalShadows::implicitShadowsUsedBy(*S.Reverse).empty()) {
    Aug =
        Function::Create(S.Augmented->getFunctionType(),
                         GlobalValue::InternalLinkage, Name + ".augmented", M);
    IRBuilder<> B(BasicBlock::Create(C, "entry", Aug));
    SmallVector<Value *, 16> Args;
    for (Argument &A : Aug->args())
      Args.push_back(&A);
    Value *Tape = Aug->getArg(Aug->arg_size() - 1);
    Value *OldTag = Freed
                        ? B.CreateCall(getFreedShadowSetTagFn(M, Depth), {Tape})
                        : nullptr;
    CallInst *Call = B.CreateCall(S.Augmented, Args);
    if (OldTag)
      B.CreateCall(getFreedShadowSetTagFn(M, Depth), {OldTag});
    if (Call->getType()->isVoidTy())
      B.CreateRetVoid();
    else
      B.CreateRet(Call);
    B.SetInsertPoint(Call);
    GlobalShadows::zeroImplicitShadows(B, {S.Augmented, S.Reverse});
  }
  Function *Release = S.Release;
  if (Freed) {
    Release =
        Function::Create(S.Release->getFunctionType(),
                         GlobalValue::InternalLinkage, Name + ".release", M);
    IRBuilder<> B(BasicBlock::Create(C, "entry", Release));
    std::string Msg = lostAdjointsMessage(*R.Fn);
    B.CreateCall(getFreedShadowReleaseTagFn(M, Depth),
                 {Release->getArg(0), B.CreateGlobalStringPtr(Msg),
                  B.getInt64(Msg.size())});
    B.CreateCall(S.Release, {Release->getArg(0)});
    B.CreateRetVoid();
  }
  Constant *Init = ConstantStruct::get(
      Ty,
      {Aug, Rev, Release, ConstantInt::get(Type::getInt64Ty(C), S.TapeBytes),
       ConstantInt::get(Type::getInt32Ty(C), S.Replayable)});
  auto *GV = new GlobalVariable(M, Ty, /*isConstant=*/true,
                                GlobalValue::PrivateLinkage, Init, Name);
  GV->setAlignment(Align(8));
  return GV;
}

} // namespace tapestry
