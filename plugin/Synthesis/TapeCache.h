//===- TapeCache.h - Record arrays kept between calls -----------*- C++ -*-===//
//
// A reverse-mode derivative keeps a record array per loop (its tape) and
// frees it when the reverse sweep ends. Called again and again, as a
// gradient is, it would ask malloc for the same blocks every call, and a
// block past glibc's mmap threshold (128 KiB) costs a mapping, page faults
// and an unmapping each time. So a finished sweep gives its blocks to a
// per-thread cache of TapeCacheSlots blocks, and the next sweep's record
// arrays start from them, each loop's from the block that fits it best:
// after the first call a thread's tapes cost no allocation until they
// outgrow their blocks.
//
// The cache, __tapestry_tape_cache, is a thread-local global every module
// defines alike (linkonce_odr), so all derivatives of a program share it. A
// thread's blocks are freed when it exits (__cxa_thread_atexit_impl) or
// when it calls tapestry_release_tape_cache() (tapestry/runtime.h). The main
// thread registers no such destructor: it would run as the process ends,
// after a JIT such as lli has released the code it lives in; its blocks stay
// reachable from its cache until the process ends.
//
// The fixed-size tapes of the calls a one-shot derivative does not inline
// (recursion, large callees) come from a second per-thread structure, the
// tape arena (__tapestry_tape_arena): a stack of chunks. Such a call's tape
// is taken in the forward sweep and given back in the reverse sweep, and
// the calls nest, so the tapes are taken in pre-order and given back in its
// reverse: taking one is a bump of the arena's top, giving one back resets
// the top to it (everything taken after it goes too), and the chunks stay,
// grown to the deepest recursion, for the next call. They are freed with
// the cache (thread exit, tapestry_release_tape_cache). Tapes whose life
// does not nest so stay on malloc: split requests' (the caller holds them),
// and OpenMP regions' (their reverse may run on another thread).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_TAPECACHE_H
#define TAPESTRY_SYNTHESIS_TAPECACHE_H

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace tapestry {

/// As many record arrays as the loops of one derivative usually keep (an
/// LSTM's has 8); beyond that the smallest are allocated each call.
constexpr unsigned TapeCacheSlots = 8;

/// void @tapestry.tape.acquire(ptr state, i64 need): an empty tape state (see
/// getTapeStateType) takes the thread's best-fitting cached block, if any:
/// the smallest one of at least \p need bytes and not many times more (a
/// loop whose trip count is known up front), or the smallest one when \p
/// need is 0 (a loop whose records grow).
llvm::Function *getTapeAcquireFn(llvm::Module &M);
/// void @tapestry.tape.recycle(ptr state): gives the state's block back to
/// the thread's cache, in an empty slot or in place of the smallest cached
/// block if that one is smaller (which is freed); else frees the block.
llvm::Function *getTapeRecycleFn(llvm::Module &M);
/// ptr @tapestry.arena.alloc(i64 bytes): \p bytes (a multiple of 16) from
/// the top of this thread's tape arena, 16-byte aligned.
llvm::Function *getArenaAllocFn(llvm::Module &M);
/// void @tapestry.arena.reset(ptr tape): gives back \p tape, taken from this
/// thread's arena, and everything taken after it.
llvm::Function *getArenaResetFn(llvm::Module &M);
/// void @tapestry.arena.forget(ptr tape): does nothing; marks where an
/// arena tape is no longer used, which a reset further out gives back.
llvm::Function *getArenaForgetFn(llvm::Module &M);
/// i1 @tapestry.arena.nested(): false; true in a derivative that is
/// differentiated again, whose arena calls have become malloc and free
/// (uncacheTapes), so that the releases the arena makes needless run there.
llvm::Function *getArenaNestedFn(llvm::Module &M);
/// ptr @tapestry.shadow.take(i64 bytes): a zeroed block of \p bytes for a
/// packed shadow (Synthesis/PackedShadows.h), the thread's best-fitting
/// cached block if one fits, else a new one: W times a primal block is
/// often past glibc's mmap threshold where the primal's is not.
llvm::Function *getShadowTakeFn(llvm::Module &M);
/// void @tapestry.shadow.give(ptr block): gives a block taken so (or null)
/// back to the thread's cache, as tapestry.tape.recycle does.
llvm::Function *getShadowGiveFn(llvm::Module &M);
/// In the augmented forward \p F of a split whose tapes come from the arena
/// (DiffRequest::LifoTapes): the record arrays start empty instead of from
/// the cache, and grow into arena blocks (its release then forgets them).
void arenaRecordArrays(llvm::Function &F);
/// In a derivative that is itself differentiated (nested requests), record
/// arrays and tapes must be ordinary allocations the outer derivative can
/// shadow: drops \p F's acquire calls and turns its recycle calls into
/// free, its shadow takes into zeroed mallocs and gives into free, its arena
/// allocations into malloc, its resets and forgets into free, and
/// tapestry.arena.nested into true.
void uncacheTapes(llvm::Function &F);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_TAPECACHE_H
