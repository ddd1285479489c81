//===- TapeCache.cpp - Record arrays kept from one call to the next -------===//
//
// Implements TapeCache.h: the __tapestry_tape_cache thread-local globals and
// the internal functions that take a block from the cache for a loop's record
// array (getTapeAcquireFn) and give it back at the end of a reverse sweep
// (getTapeRecycleFn), with the thread-exit destructor. uncacheTapes takes them
// out again (recycling becomes free) in a derivative that is itself
// differentiated, whose record arrays must stay ordinary allocations. Also
// the tape arena of calls' fixed tapes (__tapestry_tape_arena): its bump
// allocation, its reset, and the slow paths that add a chunk or go back to
// an earlier one.
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

/// The arena: { ptr top, ptr end, ptr chunk }, the next free byte and the
/// end of the chunk in use, and that chunk. Each chunk starts with a header
/// { ptr prev, ptr next, ptr end, i64 unused } (ArenaHeader bytes, so that
/// the tapes after it are 16-byte aligned); the chunks form a list in the
/// order they were added, the ones after the chunk in use empty.
static StructType *arenaType(LLVMContext &C) {
  Type *Ptr = PointerType::getUnqual(C);
  return StructType::get(Ptr, Ptr, Ptr);
}
static constexpr uint64_t ArenaHeader = 32;
/// The smallest chunk; each new chunk is at least twice the last one.
static constexpr uint64_t ArenaFirstChunk = 64 * 1024;
enum ArenaField { ArenaTop, ArenaEnd, ArenaChunk };
enum ChunkField { ChunkPrev, ChunkNext, ChunkEnd };

static GlobalVariable *arenaGlobal(Module &M) {
  return cacheGlobal(M, "__tapestry_tape_arena", arenaType(M.getContext()));
}

static Value *arenaField(IRBuilderBase &B, Value *Arena, ArenaField F) {
  return B.CreateStructGEP(arenaType(B.getContext()), Arena, F);
}
static Value *chunkField(IRBuilderBase &B, Value *Chunk, ChunkField F) {
  return B.CreateConstGEP1_64(B.getPtrTy(), Chunk, F);
}
/// The first byte after \p Chunk's header.
static Value *chunkBase(IRBuilderBase &B, Value *Chunk) {
  return B.CreateConstGEP1_64(B.getInt8Ty(), Chunk, ArenaHeader);
}

/// void @tapestry.arena.free.chunks(ptr first): frees \p first and the
/// chunks after it.
static Function *getFreeChunksFn(Module &M) {
  if (Function *F = M.getFunction("tapestry.arena.free.chunks"))
    return F;
  Function *F = createHelper(M, "tapestry.arena.free.chunks");
  LLVMContext &C = M.getContext();
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Loop = BasicBlock::Create(C, "chunk", F);
  BasicBlock *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  B.CreateCondBr(B.CreateIsNull(F->getArg(0)), Done, Loop);
  B.SetInsertPoint(Loop);
  PHINode *Chunk = B.CreatePHI(B.getPtrTy(), 2, "chunk");
  Chunk->addIncoming(F->getArg(0), Entry);
  Value *Next = B.CreateLoad(B.getPtrTy(), chunkField(B, Chunk, ChunkNext));
  B.CreateCall(getFreeFn(M), {Chunk});
  Chunk->addIncoming(Next, Loop);
  B.CreateCondBr(B.CreateIsNull(Next), Done, Loop);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

/// void @tapestry.tape.cache.free(ptr): frees the thread's cached blocks
/// and its arena's chunks (the thread is ending: none is in use).
static Function *getCacheFreeFn(Module &M) {
  if (Function *F = M.getFunction("tapestry.tape.cache.free"))
    return F;
  Function *F = createHelper(M, "tapestry.tape.cache.free");
  LLVMContext &C = M.getContext();
  StructType *SlotTy = slotType(C);
  GlobalVariable *Slots = cacheSlots(M);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Back = BasicBlock::Create(C, "first.chunk", F);
  BasicBlock *Free = BasicBlock::Create(C, "free.chunks", F);
  IRBuilder<> B(Entry);
  Value *Cache = B.CreateThreadLocalAddress(Slots);
  for (unsigned I = 0; I < TapeCacheSlots; ++I) {
    Value *Slot = slotAddress(B, Slots, Cache, I);
    B.CreateCall(getFreeFn(M), {B.CreateLoad(B.getPtrTy(), Slot)});
    B.CreateStore(Constant::getNullValue(SlotTy), Slot);
  }
  // The arena's chunks, from the first one.
  Value *Arena = B.CreateThreadLocalAddress(arenaGlobal(M));
  Value *Cur = B.CreateLoad(B.getPtrTy(), arenaField(B, Arena, ArenaChunk));
  B.CreateStore(Constant::getNullValue(arenaType(C)), Arena);
  B.CreateCondBr(B.CreateIsNull(Cur), Free, Back);
  B.SetInsertPoint(Back);
  PHINode *Chunk = B.CreatePHI(B.getPtrTy(), 2, "chunk");
  Chunk->addIncoming(Cur, Entry);
  Value *Prev = B.CreateLoad(B.getPtrTy(), chunkField(B, Chunk, ChunkPrev));
  Chunk->addIncoming(Prev, Back);
  B.CreateCondBr(B.CreateIsNull(Prev), Free, Back);
  B.SetInsertPoint(Free);
  PHINode *First = B.CreatePHI(B.getPtrTy(), 2, "first");
  First->addIncoming(Cur, Entry);
  First->addIncoming(Chunk, Back);
  B.CreateCall(getFreeChunksFn(M), {First});
  B.CreateRetVoid();
  return F;
}

/// At \p B's insertion point in \p F: the first time a thread keeps memory
/// (a cached block, an arena chunk), registers the freeing of its cache
/// and arena at the thread's exit. \p B continues in a new block.
static void registerThreadExit(IRBuilderBase &B, Function *F) {
  Module &M = *F->getParent();
  LLVMContext &C = M.getContext();
  Type *Ptr = B.getPtrTy();
  GlobalVariable *Registered =
      cacheGlobal(M, "__tapestry_tape_cache_registered", Type::getInt8Ty(C));
  Value *Flag = B.CreateThreadLocalAddress(Registered);
  BasicBlock *Register = BasicBlock::Create(C, "register", F);
  BasicBlock *Store = BasicBlock::Create(C, "registered", F);
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
  B.SetInsertPoint(Store);
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
  registerThreadExit(B, F);

  // The block goes to the slot holding the smallest block (an empty slot
  // holds none: capacity 0), which is freed, if that one is smaller; else
  // the block itself is freed. The cache so keeps the largest blocks, the
  // ones most costly to allocate again.
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

/// ptr @tapestry.arena.grow(i64 bytes): the slow path of
/// tapestry.arena.alloc, when the chunk in use has no room: the next chunk
/// if there is one and it is large enough (else the chunks after the one in
/// use are freed), or a new chunk at least twice as large as the last one.
static Function *getArenaGrowFn(Module &M) {
  if (Function *F = M.getFunction("tapestry.arena.grow"))
    return F;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  Function *F =
      Function::Create(FunctionType::get(Ptr, {I64}, false),
                       GlobalValue::InternalLinkage, "tapestry.arena.grow", M);
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(Attribute::NoInline);
  F->addFnAttr(Attribute::Cold);
  Value *Bytes = F->getArg(0);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *HasChunk = BasicBlock::Create(C, "has.chunk", F);
  BasicBlock *HasNext = BasicBlock::Create(C, "has.next", F);
  BasicBlock *Drop = BasicBlock::Create(C, "drop.next", F);
  BasicBlock *New = BasicBlock::Create(C, "new.chunk", F);
  BasicBlock *Link = BasicBlock::Create(C, "link", F);
  BasicBlock *Use = BasicBlock::Create(C, "use", F);
  IRBuilder<> B(Entry);
  Value *Arena = B.CreateThreadLocalAddress(arenaGlobal(M));
  Value *Cur = B.CreateLoad(Ptr, arenaField(B, Arena, ArenaChunk), "cur");
  B.CreateCondBr(B.CreateIsNull(Cur), New, HasChunk);

  B.SetInsertPoint(HasChunk);
  Value *CurSize = B.CreateSub(
      B.CreatePtrToInt(B.CreateLoad(Ptr, chunkField(B, Cur, ChunkEnd)), I64),
      B.CreatePtrToInt(Cur, I64), "cur.size");
  // An empty arena (the top at the start of the first chunk) whose first
  // chunk is too small starts over with one large enough: the first tape
  // of a call then always opens the first chunk, so that a reset to it
  // leaves the arena visibly empty (tapestry_release_tape_cache frees an
  // empty arena's chunks).
  Value *Empty = B.CreateAnd(
      B.CreateIsNull(B.CreateLoad(Ptr, chunkField(B, Cur, ChunkPrev))),
      B.CreateICmpEQ(B.CreateLoad(Ptr, arenaField(B, Arena, ArenaTop)),
                     chunkBase(B, Cur)));
  BasicBlock *Restart = BasicBlock::Create(C, "restart", F);
  BasicBlock *Keep = BasicBlock::Create(C, "keep", F);
  B.CreateCondBr(Empty, Restart, Keep);
  B.SetInsertPoint(Restart);
  B.CreateCall(getFreeChunksFn(M), {Cur});
  B.CreateStore(Constant::getNullValue(arenaType(C)), Arena);
  B.CreateBr(New);
  B.SetInsertPoint(Keep);
  Value *Next = B.CreateLoad(Ptr, chunkField(B, Cur, ChunkNext), "next");
  B.CreateCondBr(B.CreateIsNull(Next), New, HasNext);

  B.SetInsertPoint(HasNext);
  Value *NextEnd = B.CreateLoad(Ptr, chunkField(B, Next, ChunkEnd));
  Value *Room = B.CreateSub(B.CreatePtrToInt(NextEnd, I64),
                            B.CreatePtrToInt(chunkBase(B, Next), I64));
  B.CreateCondBr(B.CreateICmpUGE(Room, Bytes), Use, Drop);

  // Too small for this tape: it and the chunks after it (as small or
  // smaller) go, and a new chunk takes their place.
  B.SetInsertPoint(Drop);
  B.CreateCall(getFreeChunksFn(M), {Next});
  B.CreateStore(ConstantPointerNull::get(cast<PointerType>(Ptr)),
                chunkField(B, Cur, ChunkNext));
  B.CreateBr(New);

  B.SetInsertPoint(New);
  PHINode *Prev = B.CreatePHI(Ptr, 4, "prev");
  Prev->addIncoming(Cur, Entry);
  Prev->addIncoming(ConstantPointerNull::get(cast<PointerType>(Ptr)), Restart);
  Prev->addIncoming(Cur, Keep);
  Prev->addIncoming(Cur, Drop);
  PHINode *PrevSize = B.CreatePHI(I64, 4, "prev.size");
  PrevSize->addIncoming(B.getInt64(0), Entry);
  PrevSize->addIncoming(CurSize, Restart);
  PrevSize->addIncoming(CurSize, Keep);
  PrevSize->addIncoming(CurSize, Drop);
  // Twice the last chunk, the first chunk's size at least, and room for
  // the tape.
  Value *Size = B.CreateBinaryIntrinsic(
      Intrinsic::umax, B.CreateShl(PrevSize, 1),
      B.CreateBinaryIntrinsic(Intrinsic::umax,
                              B.CreateAdd(Bytes, B.getInt64(ArenaHeader)),
                              B.getInt64(ArenaFirstChunk)));
  Value *Chunk = B.CreateCall(getMallocFn(M), {Size}, "chunk");
  B.CreateStore(Prev, chunkField(B, Chunk, ChunkPrev));
  B.CreateStore(ConstantPointerNull::get(cast<PointerType>(Ptr)),
                chunkField(B, Chunk, ChunkNext));
  B.CreateStore(B.CreateGEP(B.getInt8Ty(), Chunk, Size),
                chunkField(B, Chunk, ChunkEnd));
  BasicBlock *First = BasicBlock::Create(C, "first", F);
  B.CreateCondBr(B.CreateIsNull(Prev), First, Link);
  // The thread's first chunk: free the arena when the thread exits.
  B.SetInsertPoint(First);
  registerThreadExit(B, F);
  BasicBlock *Registered = B.GetInsertBlock();
  B.CreateBr(Use);
  B.SetInsertPoint(Link);
  B.CreateStore(Chunk, chunkField(B, Prev, ChunkNext));
  B.CreateBr(Use);

  B.SetInsertPoint(Use);
  PHINode *Taken = B.CreatePHI(Ptr, 3, "taken");
  Taken->addIncoming(Next, HasNext);
  Taken->addIncoming(Chunk, Link);
  Taken->addIncoming(Chunk, Registered);
  Value *Base = chunkBase(B, Taken);
  B.CreateStore(Taken, arenaField(B, Arena, ArenaChunk));
  B.CreateStore(B.CreateGEP(B.getInt8Ty(), Base, Bytes),
                arenaField(B, Arena, ArenaTop));
  B.CreateStore(B.CreateLoad(Ptr, chunkField(B, Taken, ChunkEnd)),
                arenaField(B, Arena, ArenaEnd));
  B.CreateRet(Base);
  return F;
}

Function *getArenaAllocFn(Module &M) {
  if (Function *F = M.getFunction("tapestry.arena.alloc"))
    return F;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  Function *F =
      Function::Create(FunctionType::get(Ptr, {I64}, false),
                       GlobalValue::InternalLinkage, "tapestry.arena.alloc", M);
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(Attribute::InlineHint);
  F->addRetAttr(Attribute::NoAlias);
  F->addRetAttr(Attribute::getWithAlignment(C, Align(16)));
  Value *Bytes = F->getArg(0);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Bump = BasicBlock::Create(C, "bump", F);
  BasicBlock *Grow = BasicBlock::Create(C, "grow", F);
  IRBuilder<> B(Entry);
  if (tapeStatisticsEnabled()) {
    // Benchmarks count the bytes of tape a call holds, as if allocated.
    GlobalVariable *HW = tapeHighWaterMark(M);
    B.CreateStore(B.CreateAdd(B.CreateLoad(I64, HW), Bytes), HW);
  }
  Value *Arena = B.CreateThreadLocalAddress(arenaGlobal(M));
  Value *TopP = arenaField(B, Arena, ArenaTop);
  Value *Top = B.CreateLoad(Ptr, TopP, "top");
  Value *End = B.CreateLoad(Ptr, arenaField(B, Arena, ArenaEnd), "end");
  // No chunk yet: top and end are null, and no tape fits.
  Value *NewTop = B.CreateGEP(B.getInt8Ty(), Top, Bytes);
  Value *Fits = B.CreateICmpULE(B.CreatePtrToInt(NewTop, I64),
                                B.CreatePtrToInt(End, I64));
  B.CreateCondBr(Fits, Bump, Grow);
  B.SetInsertPoint(Bump);
  B.CreateStore(NewTop, TopP);
  B.CreateRet(Top);
  B.SetInsertPoint(Grow);
  B.CreateRet(B.CreateCall(getArenaGrowFn(M), {Bytes}));
  return F;
}

/// void @tapestry.arena.unwind(ptr tape): the slow path of
/// tapestry.arena.reset, for a tape in an earlier chunk than the one in use:
/// that chunk becomes the one in use (the chunks after it stay, empty, for
/// the next tapes).
static Function *getArenaUnwindFn(Module &M) {
  if (Function *F = M.getFunction("tapestry.arena.unwind"))
    return F;
  Function *F = createHelper(M, "tapestry.arena.unwind");
  // The tape's address becomes the arena's top: kept.
  F->removeParamAttr(0, Attribute::NoCapture);
  F->addFnAttr(Attribute::NoInline);
  LLVMContext &C = M.getContext();
  Value *Tape = F->getArg(0);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Loop = BasicBlock::Create(C, "chunk", F);
  BasicBlock *Found = BasicBlock::Create(C, "found", F);
  BasicBlock *Ret = BasicBlock::Create(C, "return", F);
  IRBuilder<> B(Entry);
  Type *Ptr = B.getPtrTy(), *I64 = B.getInt64Ty();
  Value *Arena = B.CreateThreadLocalAddress(arenaGlobal(M));
  Value *Cur = B.CreateLoad(Ptr, arenaField(B, Arena, ArenaChunk));
  B.CreateCondBr(B.CreateIsNull(Cur), Ret, Loop);
  B.SetInsertPoint(Loop);
  PHINode *Chunk = B.CreatePHI(Ptr, 2, "chunk");
  Chunk->addIncoming(Cur, Entry);
  Value *End = B.CreateLoad(Ptr, chunkField(B, Chunk, ChunkEnd));
  Value *At = B.CreatePtrToInt(Tape, I64);
  Value *In = B.CreateAnd(
      B.CreateICmpUGE(At, B.CreatePtrToInt(chunkBase(B, Chunk), I64)),
      B.CreateICmpULT(At, B.CreatePtrToInt(End, I64)));
  BasicBlock *Earlier = BasicBlock::Create(C, "earlier", F);
  B.CreateCondBr(In, Found, Earlier);
  B.SetInsertPoint(Earlier);
  Value *Prev = B.CreateLoad(Ptr, chunkField(B, Chunk, ChunkPrev));
  Chunk->addIncoming(Prev, Earlier);
  // Not from this arena (cannot happen): the arena stays as it is.
  B.CreateCondBr(B.CreateIsNull(Prev), Ret, Loop);
  B.SetInsertPoint(Found);
  B.CreateStore(Chunk, arenaField(B, Arena, ArenaChunk));
  B.CreateStore(Tape, arenaField(B, Arena, ArenaTop));
  B.CreateStore(End, arenaField(B, Arena, ArenaEnd));
  B.CreateBr(Ret);
  B.SetInsertPoint(Ret);
  B.CreateRetVoid();
  return F;
}

Function *getArenaResetFn(Module &M) {
  if (Function *F = M.getFunction("tapestry.arena.reset"))
    return F;
  Function *F = createHelper(M, "tapestry.arena.reset");
  // The tape's address becomes the arena's top: kept.
  F->removeParamAttr(0, Attribute::NoCapture);
  F->addFnAttr(Attribute::InlineHint);
  LLVMContext &C = M.getContext();
  Value *Tape = F->getArg(0);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Here = BasicBlock::Create(C, "this.chunk", F);
  BasicBlock *Unwind = BasicBlock::Create(C, "earlier.chunk", F);
  BasicBlock *Ret = BasicBlock::Create(C, "return", F);
  IRBuilder<> B(Entry);
  Type *Ptr = B.getPtrTy(), *I64 = B.getInt64Ty();
  Value *Arena = B.CreateThreadLocalAddress(arenaGlobal(M));
  Value *Cur = B.CreateLoad(Ptr, arenaField(B, Arena, ArenaChunk));
  Value *End = B.CreateLoad(Ptr, arenaField(B, Arena, ArenaEnd));
  // In the chunk in use (with none, base is 32 and end 0: never).
  Value *At = B.CreatePtrToInt(Tape, I64);
  Value *In =
      B.CreateAnd(B.CreateICmpUGE(At, B.CreatePtrToInt(chunkBase(B, Cur), I64)),
                  B.CreateICmpULT(At, B.CreatePtrToInt(End, I64)));
  B.CreateCondBr(In, Here, Unwind);
  B.SetInsertPoint(Here);
  B.CreateStore(Tape, arenaField(B, Arena, ArenaTop));
  B.CreateBr(Ret);
  B.SetInsertPoint(Unwind);
  B.CreateCall(getArenaUnwindFn(M), {Tape});
  B.CreateBr(Ret);
  B.SetInsertPoint(Ret);
  B.CreateRetVoid();
  return F;
}

Function *getArenaForgetFn(Module &M) {
  if (Function *F = M.getFunction("tapestry.arena.forget"))
    return F;
  Function *F = createHelper(M, "tapestry.arena.forget");
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", F));
  B.CreateRetVoid();
  return F;
}

/// void @tapestry.tape.reserve.arena(ptr state, i64 need, i64 least): as
/// tapestry.tape.reserve (InlineHelpers.h), but a record array that grows
/// moves to a larger block from the thread's arena; the block it leaves
/// goes back with the tape of the one-shot call it was taken under.
static Function *getArenaReserveFn(Module &M) {
  if (Function *F = M.getFunction("tapestry.tape.reserve.arena"))
    return F;
  return createTapeReserveFn(
      M, "tapestry.tape.reserve.arena",
      [&](IRBuilderBase &B, Value *Base, Value *Cap, Value *Need,
          Value *Least) -> std::pair<Value *, Value *> {
        Value *NewCap = B.CreateBinaryIntrinsic(
            Intrinsic::umax,
            B.CreateBinaryIntrinsic(Intrinsic::umax, Need, Least),
            B.CreateShl(Cap, 1));
        // Arena blocks are multiples of 16 bytes.
        NewCap = B.CreateAnd(B.CreateAdd(NewCap, B.getInt64(15)),
                             B.getInt64(~15ULL));
        Value *NewBase = B.CreateCall(getArenaAllocFn(M), {NewCap});
        B.CreateMemCpy(NewBase, Align(16), Base, MaybeAlign(), Cap);
        B.CreateCall(getArenaForgetFn(M), {Base});
        return {NewBase, NewCap};
      });
}

void arenaRecordArrays(Function &F) {
  Module &M = *F.getParent();
  SmallVector<CallInst *, 4> Acquires;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (Function *Callee = CI->getCalledFunction()) {
          if (Callee->getName() == "tapestry.tape.acquire")
            Acquires.push_back(CI);
          else if (Callee->getName() == "tapestry.tape.reserve")
            CI->setCalledFunction(getArenaReserveFn(M));
        }
  for (CallInst *CI : Acquires)
    CI->eraseFromParent();
}

Function *getShadowTakeFn(Module &M) {
  if (Function *F = M.getFunction("tapestry.shadow.take"))
    return F;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  Function *F =
      Function::Create(FunctionType::get(Ptr, {I64}, false),
                       GlobalValue::InternalLinkage, "tapestry.shadow.take", M);
  F->addFnAttr(Attribute::NoUnwind);
  Value *Bytes = F->getArg(0);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Fresh = BasicBlock::Create(C, "fresh", F);
  BasicBlock *Zero = BasicBlock::Create(C, "zero", F);
  IRBuilder<> B(Entry);
  StructType *StateTy = getTapeStateType(M);
  Value *State = B.CreateAlloca(StateTy, nullptr, "state");
  B.CreateStore(Constant::getNullValue(StateTy), State);
  B.CreateCall(getTapeAcquireFn(M), {State, Bytes});
  Value *Cached = B.CreateLoad(Ptr, B.CreateStructGEP(StateTy, State, 0));
  B.CreateCondBr(B.CreateIsNull(Cached), Fresh, Zero);
  BasicBlock *Failed = BasicBlock::Create(C, "failed", F);
  B.SetInsertPoint(Fresh);
  Value *New = B.CreateCall(getMallocFn(M), {Bytes});
  // Out of memory: null, as the primal's allocator would give.
  B.CreateCondBr(B.CreateIsNull(New), Failed, Zero);
  B.SetInsertPoint(Failed);
  B.CreateRet(New);
  B.SetInsertPoint(Zero);
  PHINode *Block = B.CreatePHI(Ptr, 2, "block");
  Block->addIncoming(Cached, Entry);
  Block->addIncoming(New, Fresh);
  B.CreateMemSet(Block, B.getInt8(0), Bytes, MaybeAlign(16));
  B.CreateRet(Block);
  return F;
}

Function *getShadowGiveFn(Module &M) {
  if (Function *F = M.getFunction("tapestry.shadow.give"))
    return F;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  Function *F =
      Function::Create(FunctionType::get(Type::getVoidTy(C), {Ptr}, false),
                       GlobalValue::InternalLinkage, "tapestry.shadow.give", M);
  F->addFnAttr(Attribute::NoUnwind);
  Value *Block = F->getArg(0);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  StructType *StateTy = getTapeStateType(M);
  Value *State = B.CreateAlloca(StateTy, nullptr, "state");
  // The block's capacity is what malloc gave (at least what was asked for;
  // 0 for null, which recycle then ignores).
  FunctionCallee Usable = M.getOrInsertFunction(
      "malloc_usable_size", FunctionType::get(I64, {Ptr}, false));
  B.CreateStore(Block, B.CreateStructGEP(StateTy, State, 0));
  B.CreateStore(B.getInt64(0), B.CreateStructGEP(StateTy, State, 1));
  B.CreateStore(B.CreateCall(Usable, {Block}),
                B.CreateStructGEP(StateTy, State, 2));
  B.CreateCall(getTapeRecycleFn(M), {State});
  B.CreateRetVoid();
  return F;
}

Function *getArenaNestedFn(Module &M) {
  if (Function *F = M.getFunction("tapestry.arena.nested"))
    return F;
  LLVMContext &C = M.getContext();
  Function *F = Function::Create(FunctionType::get(Type::getInt1Ty(C), false),
                                 GlobalValue::InternalLinkage,
                                 "tapestry.arena.nested", M);
  F->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  B.CreateRet(B.getFalse());
  return F;
}

void uncacheTapes(Function &F) {
  SmallVector<CallInst *, 4> Calls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (Function *Callee = CI->getCalledFunction())
          if (Callee->getName() == "tapestry.tape.acquire" ||
              Callee->getName() == "tapestry.tape.recycle" ||
              Callee->getName().starts_with("tapestry.shadow.") ||
              Callee->getName().starts_with("tapestry.arena."))
            Calls.push_back(CI);
  Module &M = *F.getParent();
  for (CallInst *CI : Calls) {
    StringRef Name = CI->getCalledFunction()->getName();
    IRBuilder<> B(CI);
    if (Name == "tapestry.tape.recycle") {
      Value *Base = B.CreateLoad(
          B.getPtrTy(),
          B.CreateStructGEP(getTapeStateType(M), CI->getArgOperand(0), 0));
      B.CreateCall(getFreeFn(M), {Base});
    } else if (Name == "tapestry.arena.alloc") {
      CallInst *Block =
          B.CreateCall(getMallocFn(M), {CI->getArgOperand(0)}, CI->getName());
      CI->replaceAllUsesWith(Block);
    } else if (Name == "tapestry.arena.reset" ||
               Name == "tapestry.arena.forget") {
      B.CreateCall(getFreeFn(M), {CI->getArgOperand(0)});
    } else if (Name == "tapestry.shadow.take") {
      Value *Bytes = CI->getArgOperand(0);
      CallInst *Block = B.CreateCall(getMallocFn(M), {Bytes}, CI->getName());
      B.CreateMemSet(Block, B.getInt8(0), Bytes, MaybeAlign(16));
      CI->replaceAllUsesWith(Block);
    } else if (Name == "tapestry.shadow.give") {
      B.CreateCall(getFreeFn(M), {CI->getArgOperand(0)});
    } else if (Name == "tapestry.arena.nested") {
      CI->replaceAllUsesWith(B.getTrue());
    }
    CI->eraseFromParent();
  }
}

} // namespace tapestry
