//===- InlineHelpers.h - Small IR functions derivatives call ----*- C++ -*-===//
//
// Derivatives must link without any library, so the little routines they
// need (a growable LIFO tape, the adjoint of memcpy) are emitted into the
// module as internal always-inline functions, once per module.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_INLINEHELPERS_H
#define TAPESTRY_SYNTHESIS_INLINEHELPERS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <utility>

namespace llvm {
class Function;
class IRBuilderBase;
class Value;
class GlobalVariable;
class Module;
class StructType;
class Type;
} // namespace llvm

namespace tapestry {

/// With -tapestry-tape-stats (a command-line option: -mllvm with clang),
/// every tape push also records the largest tape in bytes in the runtime's
/// global __tapestry_tape_high_water (link with -ltapestry-rt): for
/// benchmarks.
bool tapeStatisticsEnabled();
llvm::GlobalVariable *tapeHighWaterMark(llvm::Module &M);

/// The tape state {ptr base, i64 used bytes, i64 capacity bytes}.
llvm::StructType *getTapeStateType(llvm::Module &M);
/// void @tapestry.tape.reserve(ptr state, i64 bytes, i64 least): makes the
/// buffer at least \p bytes long, growing it geometrically, and to no less
/// than \p least bytes when it grows (a loop's first records: small for a
/// loop of a few iterations, as a recursive call's is).
llvm::Function *getTapeReserveFn(llvm::Module &M);
/// What a reserve helper does when the buffer must grow: given the state's
/// base and capacity, the bytes needed and the least growth, emits the
/// move and returns the new base and capacity.
using TapeGrowth = llvm::function_ref<std::pair<llvm::Value *, llvm::Value *>(
    llvm::IRBuilderBase &B, llvm::Value *Base, llvm::Value *Cap,
    llvm::Value *Need, llvm::Value *Least)>;
/// A helper with the shape of tapestry.tape.reserve named \p Name: it
/// records the bytes used, and where they pass the capacity, grows the
/// buffer by \p Grow (tapestry.tape.reserve reallocates; the arena variant,
/// TapeCache.cpp, moves to an arena block).
llvm::Function *createTapeReserveFn(llvm::Module &M, llvm::StringRef Name,
                                    TapeGrowth Grow);
/// void @tapestry.copy.adjoint.<ty>(ptr dst', ptr src', i64 bytes): the
/// reverse of memcpy/memmove of FPTy data: src' += dst'; dst' = 0, correct
/// when the two ranges overlap.
llvm::Function *getCopyAdjointFn(llvm::Module &M, llvm::Type *FPTy);

/// How getPartsFn's helper treats each listed part.
enum class PartsOp {
  /// The reverse of a copy of the parts: src' += dst'; dst' = 0.
  Accumulate,
  /// The same for ranges that may overlap (memmove): dst' is read first.
  AccumulateOverlapping,
  /// A copy of the parts alone: dst' = src' (pointers' shadows).
  Copy,
  /// The parts of dst' set to zero (src' unused): what a copy from
  /// constant memory leaves there.
  Zero,
};
/// void @tapestry.parts.<...>(ptr dst', ptr src', i64 bytes): applies \p Op
/// to the scalars of type T at the byte offsets of \p Parts ((offset, T)
/// pairs) within the first \p bytes bytes, repeated every \p Period bytes
/// (0: once). The bytes of no listed part are left alone.
llvm::Function *
getPartsFn(llvm::Module &M,
           llvm::ArrayRef<std::pair<uint64_t, llvm::Type *>> Parts,
           uint64_t Period, PartsOp Op);

/// void @tapestry.fail.if(i1 cond, ptr msg, i64 len): when \p cond holds,
/// writes the \p len bytes at \p msg to stderr and aborts. A run-time check
/// as a call, so that the code emitting it keeps its blocks.
llvm::Function *getFailIfFn(llvm::Module &M);

/// Emits, at \p B, a flush of stdio's streams, a write of the \p Len bytes
/// at \p Msg to stderr and a call to abort (the block still needs its
/// terminator): how derivative code stops on a misuse it detects at run
/// time, with the C library only.
void emitFatalMessage(llvm::IRBuilderBase &B, llvm::Value *Msg,
                      llvm::Value *Len);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_INLINEHELPERS_H
