//===- InlineHelpers.cpp --------------------------------------------------===//
#include "Synthesis/InlineHelpers.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include <cstdlib>
#include <string>

using namespace llvm;

namespace tapestry {

StructType *getTapeStateType(Module &M) {
  LLVMContext &C = M.getContext();
  if (StructType *T = StructType::getTypeByName(C, "tapestry.tape"))
    return T;
  return StructType::create(
      C, {PointerType::getUnqual(C), Type::getInt64Ty(C), Type::getInt64Ty(C)},
      "tapestry.tape");
}

static Function *createHelper(Module &M, StringRef Name, FunctionType *FT) {
  Function *F = Function::Create(FT, GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::AlwaysInline);
  F->addFnAttr(Attribute::NoUnwind);
  return F;
}

static FunctionCallee libFn(Module &M, StringRef Name, Type *Ret,
                            ArrayRef<Type *> Params) {
  return M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
}

bool tapeStatisticsEnabled() {
  const char *Env = std::getenv("TAPESTRY_TAPE_STATS");
  return Env && *Env && std::string(Env) != "0";
}

GlobalVariable *tapeHighWaterMark(Module &M) {
  Type *I64 = Type::getInt64Ty(M.getContext());
  return cast<GlobalVariable>(
      M.getOrInsertGlobal("__tapestry_tape_high_water", I64));
}

Function *getTapeReserveFn(Module &M) {
  if (Function *F = M.getFunction("tapestry.tape.reserve"))
    return F;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  StructType *ST = getTapeStateType(M);
  Function *F =
      createHelper(M, "tapestry.tape.reserve",
                   FunctionType::get(Type::getVoidTy(C), {Ptr, I64}, false));
  Value *State = F->getArg(0), *Need = F->getArg(1);
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *Grow = BasicBlock::Create(C, "grow", F);
  auto *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  Value *BaseP = B.CreateStructGEP(ST, State, 0);
  Value *UsedP = B.CreateStructGEP(ST, State, 1);
  Value *CapP = B.CreateStructGEP(ST, State, 2);
  Value *Cap = B.CreateLoad(I64, CapP);
  B.CreateStore(Need, UsedP);
  B.CreateCondBr(B.CreateICmpUGT(Need, Cap), Grow, Done);

  B.SetInsertPoint(Grow);
  Value *Doubled = B.CreateShl(Cap, 1);
  Value *NewCap = B.CreateSelect(B.CreateICmpUGT(Need, Doubled), Need, Doubled);
  NewCap = B.CreateSelect(B.CreateICmpULT(NewCap, B.getInt64(4096)),
                          B.getInt64(4096), NewCap);
  Value *Base = B.CreateLoad(Ptr, BaseP);
  Value *NewBase =
      B.CreateCall(libFn(M, "realloc", Ptr, {Ptr, I64}), {Base, NewCap});
  B.CreateStore(NewBase, BaseP);
  B.CreateStore(NewCap, CapP);
  if (tapeStatisticsEnabled()) {
    // Benchmarks read the bytes of tape allocated.
    GlobalVariable *HW = tapeHighWaterMark(M);
    B.CreateStore(B.CreateAdd(B.CreateLoad(I64, HW), B.CreateSub(NewCap, Cap)),
                  HW);
  }
  B.CreateBr(Done);

  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

Function *getCopyAdjointFn(Module &M, Type *FPTy) {
  std::string Name = "tapestry.copy.adjoint.";
  raw_string_ostream OS(Name);
  FPTy->print(OS);
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  Function *F = createHelper(
      M, Name, FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr, I64}, false));
  Value *Dst = F->getArg(0), *Src = F->getArg(1), *Bytes = F->getArg(2);
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *Loop = BasicBlock::Create(C, "loop", F);
  auto *Exit = BasicBlock::Create(C, "exit", F);
  uint64_t Size = M.getDataLayout().getTypeAllocSize(FPTy);
  IRBuilder<> B(Entry);
  // Snapshot dst' first: with overlapping ranges, adding into src' must not
  // change the dst' values still to be read.
  Value *Tmp = B.CreateCall(libFn(M, "malloc", Ptr, {I64}), {Bytes});
  B.CreateMemCpy(Tmp, MaybeAlign(), Dst, MaybeAlign(), Bytes);
  B.CreateMemSet(Dst, B.getInt8(0), Bytes, MaybeAlign());
  Value *N = B.CreateUDiv(Bytes, B.getInt64(Size));
  B.CreateCondBr(B.CreateICmpEQ(N, B.getInt64(0)), Exit, Loop);

  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(I64, 2);
  I->addIncoming(B.getInt64(0), Entry);
  Value *T = B.CreateLoad(FPTy, B.CreateGEP(FPTy, Tmp, I));
  Value *SP = B.CreateGEP(FPTy, Src, I);
  B.CreateStore(B.CreateFAdd(B.CreateLoad(FPTy, SP), T), SP);
  Value *Next = B.CreateAdd(I, B.getInt64(1));
  I->addIncoming(Next, Loop);
  B.CreateCondBr(B.CreateICmpEQ(Next, N), Exit, Loop);

  B.SetInsertPoint(Exit);
  B.CreateCall(libFn(M, "free", Type::getVoidTy(C), {Ptr}), {Tmp});
  B.CreateRetVoid();
  return F;
}

void emitFatalMessage(IRBuilderBase &B, Value *Msg, Value *Len) {
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Write = M.getOrInsertFunction(
      "write",
      FunctionType::get(B.getInt64Ty(),
                        {B.getInt32Ty(), B.getPtrTy(), B.getInt64Ty()}, false));
  FunctionCallee Abort =
      M.getOrInsertFunction("abort", FunctionType::get(B.getVoidTy(), false));
  B.CreateCall(Write, {B.getInt32(2), Msg, Len});
  B.CreateCall(Abort)->setDoesNotReturn();
}

} // namespace tapestry
