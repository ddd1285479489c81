//===- TapeCache.cpp - Record arrays kept from one call to the next -------===//
//
// Implements TapeCache.h: the __tapestry_tape_cache thread-local globals and
// the internal functions that take a block from the cache for a loop's record
// array (getTapeAcquireFn) and give it back at the end of a reverse sweep
// (getTapeRecycleFn), with the thread-exit destructor. uncacheTapes takes them
// out again (recycling becomes free) in a derivative that is itself
// differentiated, whose record arrays must stay ordinary allocations.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/TapeCache.h"

#include "Core/AllocationFunctions.h"
#include "Synthesis/InlineHelpers.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include <cstdint>

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

/// The most bytes a cached block may hold beyond what a loop with a known
/// trip count needs and still be given to it: a block several times larger
/// is left for the loop it came from (see getTapeAcquireFn).
static constexpr uint64_t SlackFactor = 4;
/// Any block up to this size fits a loop that needs less: small blocks are
/// cheap to allocate again, so handing one out wastes nothing worth keeping.
static constexpr uint64_t SmallBlockBytes = 64 * 1024;

Function *getTapeAcquireFn(Module &M) {
  if (Function *F = M.getFunction("tapestry.tape.acquire"))
    return F;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  Function *F = Function::Create(
      FunctionType::get(Type::getVoidTy(C), {Ptr, I64}, false),
      GlobalValue::InternalLinkage, "tapestry.tape.acquire", M);
  F->addFnAttr(Attribute::NoUnwind);
  F->addParamAttr(0, Attribute::NoCapture);
  StructType *StateTy = getTapeStateType(M);
  StructType *SlotTy = slotType(C);
  GlobalVariable *Slots = cacheSlots(M);
  Value *State = F->getArg(0), *Need = F->getArg(1);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  Value *Cache = B.CreateThreadLocalAddress(Slots);
  // Best fit: the smallest cached block that holds Need bytes and is not
  // far larger (at most SlackFactor x Need, or a small block); with Need 0
  // (trip count unknown, the records grow) the smallest block. Taking the
  // first block instead gave a short loop's state the block a long loop had
  // grown, which then allocated (and faulted in) a fresh one every call.
  Value *Limit = B.CreateBinaryIntrinsic(
      Intrinsic::umax, B.CreateMul(Need, B.getInt64(SlackFactor)),
      B.getInt64(SmallBlockBytes));
  Limit = B.CreateSelect(B.CreateICmpEQ(Need, B.getInt64(0)),
                         B.getInt64(UINT64_MAX), Limit);
  Value *Best = ConstantPointerNull::get(cast<PointerType>(Ptr));
  Value *BestCap = B.getInt64(UINT64_MAX);
  for (unsigned I = 0; I < TapeCacheSlots; ++I) {
    Value *Slot = slotAddress(B, Slots, Cache, I);
    Value *Block = B.CreateLoad(Ptr, Slot);
    Value *Cap = B.CreateLoad(I64, B.CreateStructGEP(SlotTy, Slot, 1));
    Value *Fits = B.CreateAnd(
        B.CreateAnd(B.CreateIsNotNull(Block), B.CreateICmpUGE(Cap, Need)),
        B.CreateAnd(B.CreateICmpULE(Cap, Limit),
                    B.CreateICmpULT(Cap, BestCap)));
    Best = B.CreateSelect(Fits, Slot, Best);
    BestCap = B.CreateSelect(Fits, Cap, BestCap);
  }
  // The chosen block becomes the state's (used: 0 bytes).
  BasicBlock *Take = BasicBlock::Create(C, "take", F);
  BasicBlock *Ret = BasicBlock::Create(C, "return", F);
  B.CreateCondBr(B.CreateIsNull(Best), Ret, Take);
  B.SetInsertPoint(Take);
  B.CreateStore(B.CreateLoad(Ptr, Best), B.CreateStructGEP(StateTy, State, 0));
  B.CreateStore(BestCap, B.CreateStructGEP(StateTy, State, 2));
  B.CreateStore(Constant::getNullValue(SlotTy), Best);
  if (tapeStatisticsEnabled()) {
    // Benchmarks count the bytes of tape a call holds, as if allocated.
    GlobalVariable *HW = tapeHighWaterMark(M);
    B.CreateStore(B.CreateAdd(B.CreateLoad(I64, HW), BestCap), HW);
  }
  B.CreateBr(Ret);
  B.SetInsertPoint(Ret);
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
  Type *Ptr = B.getPtrTy(), *I64 = B.getInt64Ty();
  Value *Block = B.CreateLoad(Ptr, B.CreateStructGEP(StateTy, State, 0));
  Value *Cap = B.CreateLoad(I64, B.CreateStructGEP(StateTy, State, 2));
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
  // Not for the main thread (its thread id is the process id): the process
  // is ending when it exits, and the destructor would then run after a JIT
  // (lli, which Enzyme's users run their programs with) has released the
  // code it lives in. Its blocks stay reachable from its cache until then.
  BasicBlock *Worker = BasicBlock::Create(C, "worker", F);
  FunctionType *IdTy = FunctionType::get(B.getInt32Ty(), false);
  Value *IsMain =
      B.CreateICmpEQ(B.CreateCall(M.getOrInsertFunction("gettid", IdTy)),
                     B.CreateCall(M.getOrInsertFunction("getpid", IdTy)));
  B.CreateCondBr(IsMain, Store, Worker);
  B.SetInsertPoint(Worker);
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

  // The block goes to the slot holding the smallest block (an empty slot
  // holds none: capacity 0), which is freed, if that one is smaller; else
  // the block itself is freed. The cache so keeps the largest blocks, the
  // ones most costly to allocate again.
  B.SetInsertPoint(Store);
  Value *Cache = B.CreateThreadLocalAddress(Slots);
  Value *Victim = slotAddress(B, Slots, Cache, 0);
  Value *VictimCap = B.CreateLoad(I64, B.CreateStructGEP(SlotTy, Victim, 1));
  for (unsigned I = 1; I < TapeCacheSlots; ++I) {
    Value *Slot = slotAddress(B, Slots, Cache, I);
    Value *SlotCap = B.CreateLoad(I64, B.CreateStructGEP(SlotTy, Slot, 1));
    Value *Smaller = B.CreateICmpULT(SlotCap, VictimCap);
    Victim = B.CreateSelect(Smaller, Slot, Victim);
    VictimCap = B.CreateSelect(Smaller, SlotCap, VictimCap);
  }
  BasicBlock *Evict = BasicBlock::Create(C, "evict", F);
  BasicBlock *Drop = BasicBlock::Create(C, "drop", F);
  B.CreateCondBr(B.CreateICmpULT(VictimCap, Cap), Evict, Drop);
  B.SetInsertPoint(Evict);
  // free(null) for an empty slot.
  B.CreateCall(getFreeFn(M), {B.CreateLoad(Ptr, Victim)});
  B.CreateStore(Block, B.CreateStructGEP(SlotTy, Victim, 0));
  B.CreateStore(Cap, B.CreateStructGEP(SlotTy, Victim, 1));
  B.CreateBr(Ret);
  B.SetInsertPoint(Drop);
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
