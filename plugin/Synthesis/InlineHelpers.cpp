//===- InlineHelpers.cpp - Small IR functions the derivatives call --------===//
//
// Implements InlineHelpers.h: the tape state type and getTapeReserveFn (a
// growable record array), getCopyAdjointFn (the adjoint of a memcpy),
// getPartsFn (an operation on the floating-point parts of untyped bytes),
// getFailIfFn and emitFatalMessage (run-time checks), each emitted once per
// module as an internal always-inline function, and the -tapestry-tape-stats
// option with the tape high-water global it updates. Everything here is
// generated IR: derivatives need no runtime library.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/InlineHelpers.h"

#include "Core/AllocationFunctions.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include <string>

using namespace llvm;

static cl::opt<bool>
    TapeStats("tapestry-tape-stats", cl::init(false),
              cl::desc("Make derivatives add the tape bytes they allocate to "
                       "__tapestry_tape_high_water (link -ltapestry-rt): for "
                       "benchmarks"));

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

bool tapeStatisticsEnabled() { return TapeStats; }

GlobalVariable *tapeHighWaterMark(Module &M) {
  Type *I64 = Type::getInt64Ty(M.getContext());
  return cast<GlobalVariable>(
      M.getOrInsertGlobal("__tapestry_tape_high_water", I64));
}

Function *createTapeReserveFn(Module &M, StringRef Name, TapeGrowth Grow) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  StructType *ST = getTapeStateType(M);
  Function *F = createHelper(
      M, Name, FunctionType::get(Type::getVoidTy(C), {Ptr, I64, I64}, false));
  // The state is read and written, never kept (the tape splitter may then
  // copy a state the reverse changes).
  F->addParamAttr(0, Attribute::NoCapture);
  Value *State = F->getArg(0), *Need = F->getArg(1), *Least = F->getArg(2);
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *GrowBB = BasicBlock::Create(C, "grow", F);
  auto *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  Value *BaseP = B.CreateStructGEP(ST, State, 0);
  Value *UsedP = B.CreateStructGEP(ST, State, 1);
  Value *CapP = B.CreateStructGEP(ST, State, 2);
  Value *Cap = B.CreateLoad(I64, CapP);
  B.CreateStore(Need, UsedP);
  B.CreateCondBr(B.CreateICmpUGT(Need, Cap), GrowBB, Done);

  B.SetInsertPoint(GrowBB);
  auto [NewBase, NewCap] = Grow(B, B.CreateLoad(Ptr, BaseP), Cap, Need, Least);
  B.CreateStore(NewBase, BaseP);
  B.CreateStore(NewCap, CapP);
  B.CreateBr(Done);

  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

Function *getTapeReserveFn(Module &M) {
  if (Function *F = M.getFunction("tapestry.tape.reserve"))
    return F;
  return createTapeReserveFn(
      M, "tapestry.tape.reserve",
      [&](IRBuilderBase &B, Value *Base, Value *Cap, Value *Need,
          Value *Least) -> std::pair<Value *, Value *> {
        Value *Doubled = B.CreateShl(Cap, 1);
        Value *NewCap =
            B.CreateSelect(B.CreateICmpUGT(Need, Doubled), Need, Doubled);
        NewCap = B.CreateSelect(B.CreateICmpULT(NewCap, Least), Least, NewCap);
        Value *NewBase = B.CreateCall(getReallocFn(M), {Base, NewCap});
        if (tapeStatisticsEnabled()) {
          // Benchmarks read the bytes of tape allocated.
          GlobalVariable *HW = tapeHighWaterMark(M);
          Type *I64 = B.getInt64Ty();
          B.CreateStore(
              B.CreateAdd(B.CreateLoad(I64, HW), B.CreateSub(NewCap, Cap)), HW);
        }
        return {NewBase, NewCap};
      });
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
  Value *Tmp = B.CreateCall(getMallocFn(M), {Bytes});
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
  B.CreateCall(getFreeFn(M), {Tmp});
  B.CreateRetVoid();
  return F;
}

Function *getPartsFn(Module &M, ArrayRef<std::pair<uint64_t, Type *>> Parts,
                     uint64_t Period, PartsOp Op) {
  std::string Name = Op == PartsOp::Copy   ? "tapestry.parts.copy"
                     : Op == PartsOp::Zero ? "tapestry.parts.zero"
                     : Op == PartsOp::Accumulate
                         ? "tapestry.parts.adjoint"
                         : "tapestry.parts.adjoint.move";
  raw_string_ostream OS(Name);
  OS << ".p" << Period;
  for (auto [Off, T] : Parts) {
    OS << "." << Off;
    T->print(OS);
  }
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &C = M.getContext();
  const DataLayout &DL = M.getDataLayout();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C),
       *I8 = Type::getInt8Ty(C);
  Function *F = createHelper(
      M, Name, FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr, I64}, false));
  // Like memcpy, it keeps neither address.
  F->addParamAttr(0, Attribute::NoCapture);
  F->addParamAttr(1, Attribute::NoCapture);
  Value *Dst = F->getArg(0), *Src = F->getArg(1), *Bytes = F->getArg(2);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  // Runs Body(pos) for pos = Off, Off + Period, ... while the part fits.
  auto ForEach = [&](uint64_t Off, Type *T, function_ref<void(Value *)> Body) {
    uint64_t Size = DL.getTypeStoreSize(T);
    BasicBlock *Pre = B.GetInsertBlock();
    auto *Head = BasicBlock::Create(C, "head", F);
    auto *Loop = BasicBlock::Create(C, "part", F);
    auto *Next = BasicBlock::Create(C, "next", F);
    B.CreateBr(Head);
    B.SetInsertPoint(Head);
    PHINode *Pos = B.CreatePHI(I64, 2);
    Pos->addIncoming(B.getInt64(Off), Pre);
    B.CreateCondBr(B.CreateICmpULE(B.CreateAdd(Pos, B.getInt64(Size)), Bytes),
                   Loop, Next);
    B.SetInsertPoint(Loop);
    Body(Pos);
    Pos->addIncoming(Period ? B.CreateAdd(Pos, B.getInt64(Period)) : Bytes,
                     B.GetInsertBlock());
    B.CreateBr(Head);
    B.SetInsertPoint(Next);
  };
  auto At = [&](Value *Base, Value *Pos) { return B.CreateGEP(I8, Base, Pos); };
  if (Op == PartsOp::Zero) {
    for (auto [Off, T] : Parts)
      ForEach(Off, T, [&, T = T](Value *Pos) {
        B.CreateAlignedStore(Constant::getNullValue(T), At(Dst, Pos), Align(1));
      });
  } else if (Op == PartsOp::Accumulate) {
    for (auto [Off, T] : Parts)
      ForEach(Off, T, [&, T = T](Value *Pos) {
        Value *D = At(Dst, Pos), *S = At(Src, Pos);
        Value *V = B.CreateAlignedLoad(T, D, Align(1));
        B.CreateAlignedStore(Constant::getNullValue(T), D, Align(1));
        B.CreateAlignedStore(
            B.CreateFAdd(B.CreateAlignedLoad(T, S, Align(1)), V), S, Align(1));
      });
  } else {
    // Snapshot first: with overlapping ranges, writing one part must not
    // change what another still reads.
    Value *From = Op == PartsOp::Copy ? Src : Dst;
    Value *Tmp = B.CreateCall(getMallocFn(M), {Bytes});
    B.CreateMemCpy(Tmp, MaybeAlign(), From, MaybeAlign(), Bytes);
    if (Op == PartsOp::Copy) {
      for (auto [Off, T] : Parts)
        ForEach(Off, T, [&, T = T](Value *Pos) {
          B.CreateAlignedStore(B.CreateAlignedLoad(T, At(Tmp, Pos), Align(1)),
                               At(Dst, Pos), Align(1));
        });
    } else {
      for (auto [Off, T] : Parts)
        ForEach(Off, T, [&, T = T](Value *Pos) {
          B.CreateAlignedStore(Constant::getNullValue(T), At(Dst, Pos),
                               Align(1));
        });
      for (auto [Off, T] : Parts)
        ForEach(Off, T, [&, T = T](Value *Pos) {
          Value *S = At(Src, Pos);
          Value *Sum =
              B.CreateFAdd(B.CreateAlignedLoad(T, S, Align(1)),
                           B.CreateAlignedLoad(T, At(Tmp, Pos), Align(1)));
          B.CreateAlignedStore(Sum, S, Align(1));
        });
    }
    B.CreateCall(getFreeFn(M), {Tmp});
  }
  B.CreateRetVoid();
  return F;
}

Function *getFailIfFn(Module &M) {
  if (Function *F = M.getFunction("tapestry.fail.if"))
    return F;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  Function *F =
      createHelper(M, "tapestry.fail.if",
                   FunctionType::get(Type::getVoidTy(C),
                                     {Type::getInt1Ty(C), Ptr, I64}, false));
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *Fail = BasicBlock::Create(C, "fail", F);
  auto *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  B.CreateCondBr(F->getArg(0), Fail, Done);
  B.SetInsertPoint(Fail);
  emitFatalMessage(B, F->getArg(1), F->getArg(2));
  B.CreateUnreachable();
  B.SetInsertPoint(Done);
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
  // What the program printed before is not lost in stdio's buffers (a
  // log written to a file or a pipe).
  FunctionCallee Flush = M.getOrInsertFunction(
      "fflush", FunctionType::get(B.getInt32Ty(), {B.getPtrTy()}, false));
  B.CreateCall(Flush, {ConstantPointerNull::get(B.getPtrTy())});
  B.CreateCall(Write, {B.getInt32(2), Msg, Len});
  B.CreateCall(Abort)->setDoesNotReturn();
}

} // namespace tapestry
