//===- TapeCache.cpp - Record arrays kept from one call to the next -------===//
#include "Synthesis/TapeCache.h"

#include "Core/AllocationFunctions.h"
#include "Synthesis/InlineHelpers.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

/// { ptr block, i64 capacity }
static StructType *slotType(LLVMContext &C) {
  return StructType::get(PointerType::getUnqual(C), Type::getInt64Ty(C));
}

static GlobalVariable *cacheGlobal(Module &M, StringRef Name, Type *T) {
  if (GlobalVariable *G = M.getGlobalVariable(Name))
    return G;
  auto *G = new GlobalVariable(M, T, /*isConstant=*/false,
                               GlobalValue::LinkOnceODRLinkage,
                               Constant::getNullValue(T), Name, nullptr,
                               GlobalValue::GeneralDynamicTLSModel);
  G->setAlignment(Align(8));
  return G;
}

static GlobalVariable *cacheSlots(Module &M) {
  return cacheGlobal(M, "__tapestry_tape_cache",
                     ArrayType::get(slotType(M.getContext()), TapeCacheSlots));
}

/// The address of slot \p I of this thread's cache, whose thread-local
/// address is \p Cache.
static Value *slotAddress(IRBuilderBase &B, GlobalVariable *Slots, Value *Cache,
                          unsigned I) {
  return B.CreateConstInBoundsGEP2_32(Slots->getValueType(), Cache, 0, I);
}

static Function *createHelper(Module &M, StringRef Name) {
  LLVMContext &C = M.getContext();
  Function *F = Function::Create(
      FunctionType::get(Type::getVoidTy(C), {PointerType::getUnqual(C)}, false),
      GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoUnwind);
  F->addParamAttr(0, Attribute::NoCapture);
  return F;
}

/// void @tapestry.tape.cache.free(ptr): frees the thread's cached blocks.
static Function *getCacheFreeFn(Module &M) {
  if (Function *F = M.getFunction("tapestry.tape.cache.free"))
    return F;
  Function *F = createHelper(M, "tapestry.tape.cache.free");
  LLVMContext &C = M.getContext();
  StructType *SlotTy = slotType(C);
  GlobalVariable *Slots = cacheSlots(M);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  Value *Cache = B.CreateThreadLocalAddress(Slots);
  for (unsigned I = 0; I < TapeCacheSlots; ++I) {
    Value *Slot = slotAddress(B, Slots, Cache, I);
    B.CreateCall(getFreeFn(M), {B.CreateLoad(B.getPtrTy(), Slot)});
    B.CreateStore(Constant::getNullValue(SlotTy), Slot);
  }
  B.CreateRetVoid();
  return F;
}

Function *getTapeAcquireFn(Module &M) {
  if (Function *F = M.getFunction("tapestry.tape.acquire"))
    return F;
  Function *F = createHelper(M, "tapestry.tape.acquire");
  LLVMContext &C = M.getContext();
  StructType *StateTy = getTapeStateType(M);
  StructType *SlotTy = slotType(C);
  GlobalVariable *Slots = cacheSlots(M);
  Value *State = F->getArg(0);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  Value *Cache = B.CreateThreadLocalAddress(Slots);
  // The first cached block, if any, becomes the state's (used: 0 bytes).
  for (unsigned I = 0; I < TapeCacheSlots; ++I) {
    Value *Slot = slotAddress(B, Slots, Cache, I);
    Value *Block = B.CreateLoad(B.getPtrTy(), Slot);
    BasicBlock *Take = BasicBlock::Create(C, "take", F);
    BasicBlock *Next = BasicBlock::Create(C, "next", F);
    B.CreateCondBr(B.CreateIsNull(Block), Next, Take);
    B.SetInsertPoint(Take);
    Value *Cap =
        B.CreateLoad(B.getInt64Ty(), B.CreateStructGEP(SlotTy, Slot, 1));
    B.CreateStore(Block, B.CreateStructGEP(StateTy, State, 0));
    B.CreateStore(Cap, B.CreateStructGEP(StateTy, State, 2));
    B.CreateStore(Constant::getNullValue(SlotTy), Slot);
    if (tapeStatisticsEnabled()) {
      // Benchmarks count the bytes of tape a call holds, as if allocated.
      GlobalVariable *HW = tapeHighWaterMark(M);
      B.CreateStore(B.CreateAdd(B.CreateLoad(B.getInt64Ty(), HW), Cap), HW);
    }
    B.CreateRetVoid();
    B.SetInsertPoint(Next);
  }
  B.CreateRetVoid();
  return F;
}

Function *getTapeRecycleFn(Module &M) {
  if (Function *F = M.getFunction("tapestry.tape.recycle"))
    return F;
  Function *F = createHelper(M, "tapestry.tape.recycle");
  LLVMContext &C = M.getContext();
  StructType *StateTy = getTapeStateType(M);
  StructType *SlotTy = slotType(C);
  GlobalVariable *Slots = cacheSlots(M);
  GlobalVariable *Registered =
      cacheGlobal(M, "__tapestry_tape_cache_registered", Type::getInt8Ty(C));
  Value *State = F->getArg(0);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Ret = BasicBlock::Create(C, "return", F);
  IRBuilder<> B(Entry);
  Value *Block =
      B.CreateLoad(B.getPtrTy(), B.CreateStructGEP(StateTy, State, 0));
  Value *Cap =
      B.CreateLoad(B.getInt64Ty(), B.CreateStructGEP(StateTy, State, 2));
  BasicBlock *Keep = BasicBlock::Create(C, "keep", F);
  B.CreateCondBr(B.CreateIsNull(Block), Ret, Keep);

  // The thread's first kept block: free the cache when the thread exits.
  B.SetInsertPoint(Keep);
  Value *Flag = B.CreateThreadLocalAddress(Registered);
  BasicBlock *Register = BasicBlock::Create(C, "register", F);
  BasicBlock *Store = BasicBlock::Create(C, "store", F);
  B.CreateCondBr(B.CreateIsNull(B.CreateLoad(B.getInt8Ty(), Flag)), Register,
                 Store);
  B.SetInsertPoint(Register);
  B.CreateStore(B.getInt8(1), Flag);
  Type *Ptr = B.getPtrTy();
  FunctionCallee AtExit = M.getOrInsertFunction(
      "__cxa_thread_atexit_impl",
      FunctionType::get(B.getInt32Ty(), {Ptr, Ptr, Ptr}, false));
  // The object the destructor belongs to (crtbegin's __dso_handle), as C++
  // thread_local destructors are registered.
  auto *Dso = cast<GlobalVariable>(
      M.getOrInsertGlobal("__dso_handle", Type::getInt8Ty(C)));
  Dso->setVisibility(GlobalValue::HiddenVisibility);
  B.CreateCall(AtExit, {getCacheFreeFn(M),
                        ConstantPointerNull::get(cast<PointerType>(Ptr)), Dso});
  B.CreateBr(Store);

  // An empty slot takes the block; else the first smaller block is freed
  // for it; else the block itself is freed.
  B.SetInsertPoint(Store);
  Value *Cache = B.CreateThreadLocalAddress(Slots);
  auto Put = [&](Value *Slot) {
    B.CreateStore(Block, B.CreateStructGEP(SlotTy, Slot, 0));
    B.CreateStore(Cap, B.CreateStructGEP(SlotTy, Slot, 1));
    B.CreateBr(Ret);
  };
  for (unsigned I = 0; I < TapeCacheSlots; ++I) {
    Value *Slot = slotAddress(B, Slots, Cache, I);
    BasicBlock *Empty = BasicBlock::Create(C, "empty", F);
    BasicBlock *Next = BasicBlock::Create(C, "next", F);
    B.CreateCondBr(B.CreateIsNull(B.CreateLoad(Ptr, Slot)), Empty, Next);
    B.SetInsertPoint(Empty);
    Put(Slot);
    B.SetInsertPoint(Next);
  }
  for (unsigned I = 0; I < TapeCacheSlots; ++I) {
    Value *Slot = slotAddress(B, Slots, Cache, I);
    Value *SlotCap =
        B.CreateLoad(B.getInt64Ty(), B.CreateStructGEP(SlotTy, Slot, 1));
    BasicBlock *Evict = BasicBlock::Create(C, "evict", F);
    BasicBlock *Next = BasicBlock::Create(C, "next", F);
    B.CreateCondBr(B.CreateICmpULT(SlotCap, Cap), Evict, Next);
    B.SetInsertPoint(Evict);
    B.CreateCall(getFreeFn(M), {B.CreateLoad(Ptr, Slot)});
    Put(Slot);
    B.SetInsertPoint(Next);
  }
  B.CreateCall(getFreeFn(M), {Block});
  B.CreateBr(Ret);
  B.SetInsertPoint(Ret);
  B.CreateRetVoid();
  return F;
}

void uncacheTapes(Function &F) {
  SmallVector<CallInst *, 4> Calls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (Function *Callee = CI->getCalledFunction())
          if (Callee->getName() == "tapestry.tape.acquire" ||
              Callee->getName() == "tapestry.tape.recycle")
            Calls.push_back(CI);
  for (CallInst *CI : Calls) {
    if (CI->getCalledFunction()->getName() == "tapestry.tape.recycle") {
      Module &M = *F.getParent();
      IRBuilder<> B(CI);
      Value *Base = B.CreateLoad(
          B.getPtrTy(),
          B.CreateStructGEP(getTapeStateType(M), CI->getArgOperand(0), 0));
      B.CreateCall(getFreeFn(M), {Base});
    }
    CI->eraseFromParent();
  }
}

} // namespace tapestry
