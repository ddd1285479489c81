//===- LibraryMemoryCalls.cpp - memcpy and friends as calls ---------------===//
//
// Implements LibraryMemoryCalls.h.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/LibraryMemoryCalls.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace tapestry {

namespace {
enum class Kind { None, Copy, Move, Fill };

struct LibraryCall {
  Kind K = Kind::None;
  bool Checked = false;
};

/// What \p CB is, if it calls one of the functions with their C types.
LibraryCall classify(const CallBase &CB) {
  const Function *Callee = CB.getCalledFunction();
  if (!Callee || !Callee->isDeclaration())
    return {};
  LibraryCall C = StringSwitch<LibraryCall>(Callee->getName())
                      .Case("memcpy", {Kind::Copy, false})
                      .Case("memmove", {Kind::Move, false})
                      .Case("memset", {Kind::Fill, false})
                      .Case("__memcpy_chk", {Kind::Copy, true})
                      .Case("__memmove_chk", {Kind::Move, true})
                      .Case("__memset_chk", {Kind::Fill, true})
                      .Default({});
  if (C.K == Kind::None || CB.arg_size() != (C.Checked ? 4u : 3u))
    return {};
  const DataLayout &DL = CB.getModule()->getDataLayout();
  auto IsSize = [&](const Value *V) {
    return V->getType()->isIntegerTy(DL.getPointerSizeInBits());
  };
  bool Typed =
      CB.getArgOperand(0)->getType()->isPointerTy() &&
      (C.K == Kind::Fill ? CB.getArgOperand(1)->getType()->isIntegerTy()
                         : CB.getArgOperand(1)->getType()->isPointerTy()) &&
      IsSize(CB.getArgOperand(2)) &&
      (!C.Checked || IsSize(CB.getArgOperand(3)));
  return Typed ? C : LibraryCall{};
}

/// Before \p CB: if n > dstlen, glibc's __chk_fail (which does not return).
void emitLengthCheck(CallBase &CB) {
  Value *N = CB.getArgOperand(2), *Len = CB.getArgOperand(3);
  if (auto *C = dyn_cast<ConstantInt>(Len); C && C->isMinusOne())
    return; // the length glibc could not tell: no check
  IRBuilder<> B(&CB);
  Value *Over = B.CreateICmpUGT(N, Len, "chk.over");
  Instruction *Then =
      SplitBlockAndInsertIfThen(Over, &CB, /*Unreachable=*/true);
  B.SetInsertPoint(Then);
  Module &M = *CB.getModule();
  FunctionCallee Fail = M.getOrInsertFunction("__chk_fail", B.getVoidTy());
  if (auto *F = dyn_cast<Function>(Fail.getCallee()))
    F->setDoesNotReturn();
  B.CreateCall(Fail)->setDoesNotReturn();
}
} // namespace

void lowerLibraryMemoryCalls(Function &F) {
  SmallVector<std::pair<CallBase *, LibraryCall>, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallInst>(&I))
      if (LibraryCall C = classify(*CB); C.K != Kind::None)
        Calls.push_back({CB, C});
  for (auto &[CB, C] : Calls) {
    if (C.Checked)
      emitLengthCheck(*CB);
    IRBuilder<> B(CB);
    Value *Dst = CB->getArgOperand(0), *N = CB->getArgOperand(2);
    switch (C.K) {
    case Kind::Copy:
      B.CreateMemCpy(Dst, MaybeAlign(), CB->getArgOperand(1), MaybeAlign(), N);
      break;
    case Kind::Move:
      B.CreateMemMove(Dst, MaybeAlign(), CB->getArgOperand(1), MaybeAlign(), N);
      break;
    case Kind::Fill:
      B.CreateMemSet(Dst, B.CreateTrunc(CB->getArgOperand(1), B.getInt8Ty()), N,
                     MaybeAlign());
      break;
    case Kind::None:
      break;
    }
    // Each returns its destination.
    if (!CB->use_empty())
      CB->replaceAllUsesWith(Dst);
    CB->eraseFromParent();
  }
}

} // namespace tapestry
