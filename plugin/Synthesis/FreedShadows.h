//===- FreedShadows.h - Shadows of blocks the primal freed ------*- C++ -*-===//
//
// In reverse mode the shadow of a heap block must outlive the reverse uses
// of it, which can run long after the primal freed the block (a
// std::vector's old storage, freed when the vector grows, still receives
// adjoints when the reverse sweep undoes the copy into the new storage).
// So the forward sweep does not free the shadow of a block it frees: it
// records it in a per-thread list, and
//   * the reverse sweep, on reaching the block's allocation, frees the
//     shadow if the list has it (a block that was never freed escaped to
//     the caller, whose shadow structure now holds its shadow);
//   * what is left when the request ends (shadows of the caller's own
//     blocks that the function freed) is freed by the request's call site.
// An adjoint that reaches such a shadow after its block was freed (the
// reverse of reads made before a std::vector input grew, or before a move
// replaced it) is lost: the caller's object now points to another block.
// So each entry keeps a copy of the shadow as it was when the block was
// freed, and the call site stops the program with a message if a word of
// a released shadow changed since to a nonzero value, instead of
// returning a gradient without those adjoints. So are seeds the caller
// gave the shadow of an output the function replaced (`out = make(x)`):
// where a sized operator delete states the block's size, a word in it
// that still holds a double of normal magnitude stops the program too.
// A split request (__enzyme_augmentfwd, then __enzyme_reverse) has no such
// end: its augmented forward's call site sets the list's tag to its tape,
// each entry keeps the tag it was pushed under, and the shadows kept with
// a tape are checked and freed when the reverse releases that tape.
// The list is {ptr entries, i64 length, i64 capacity}, each entry
// {ptr shadow, i64 kind, i64 bytes, ptr copy, ptr tag, i64 exact} (kind 0
// free, 1 operator delete, 2 operator delete[], else the address of a
// deallocator that takes the pointer alone, one registered with
// __enzyme_allocation_like; bytes 0 and no copy when the size is not
// known; exact 0 when no deallocator stated the size); its storage is
// released whenever it becomes empty.
//
// Nested derivatives keep one list per depth. The derivative of code that
// runs an inner request's derivative (the gradient in a Hessian) runs that
// request's mark and release around the inner derivative's forward sweep,
// while its own forward sweep lists the shadows of the blocks the inner
// derivative frees (a record array outgrown, the tape freed as the inner
// reverse sweep ends): in one list, the inner release would free those
// shadows before the outer reverse sweep is done with them. So a request
// uses the list one deeper than those of the derivatives nested in the
// code it differentiates (DiffRequest::FreedListDepth), and its callees'
// derivatives use its list. Depth 0's pieces are tapestry.freed.push and
// so on, depth d's tapestry.freed.push.d.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_FREEDSHADOWS_H
#define TAPESTRY_SYNTHESIS_FREEDSHADOWS_H

#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>
#include <string>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace tapestry {

/// The kind recorded for a block freed by the library deallocator
/// \p Dealloc (free, operator delete and its sized form, operator delete[]
/// and its sized form: Core/AllocationFunctions.h).
unsigned freedShadowKind(const llvm::Function &Dealloc);

/// The bytes argument of push for a block from malloc, whose size push asks
/// the allocator (malloc_usable_size).
constexpr int64_t AskAllocatorBytes = -1;
/// The same for a block from operator new, asked only if the program's
/// operator new is the C++ library's (else 0: not checked).
constexpr int64_t AskAllocatorIfNewBytes = -2;

/// The pieces of the list at depth \p Depth:
/// void @tapestry.freed.push(ptr shadow, i64 kind, i64 bytes, i64 exact),
/// bytes the shadow's size (AskAllocatorBytes: ask malloc; 0: not known,
/// unchecked), exact the block's size as a sized operator delete states it
/// (0: not stated), within which a seed left in the shadow is lost too.
llvm::Function *getFreedShadowPushFn(llvm::Module &M, unsigned Depth);
/// i1 @tapestry.freed.take(ptr shadow): removes it if listed, true if so.
llvm::Function *getFreedShadowTakeFn(llvm::Module &M, unsigned Depth);
/// i64 @tapestry.freed.mark(): the list's length, before a request runs.
llvm::Function *getFreedShadowMarkFn(llvm::Module &M, unsigned Depth);
/// void @tapestry.freed.release(i64 mark, ptr msg, i64 len): frees the
/// shadows listed after \p mark and shortens the list to it; if one of
/// them received an adjoint after its block was freed (a word changed to a
/// nonzero value: the adjoints of a caller's block the function freed or
/// grew),
/// writes the \p len bytes at \p msg to stderr and aborts instead.
llvm::Function *getFreedShadowReleaseFn(llvm::Module &M, unsigned Depth);

/// ptr @tapestry.freed.settag(ptr tape): the tape of the split request
/// whose augmented forward runs now (null: none), kept with each entry
/// pushed meanwhile; returns the previous one.
llvm::Function *getFreedShadowSetTagFn(llvm::Module &M, unsigned Depth);
/// void @tapestry.freed.releasetag(ptr tape, ptr msg, i64 len): what
/// release does, for the entries kept with \p tape (a split request's
/// tape being released).
llvm::Function *getFreedShadowReleaseTagFn(llvm::Module &M, unsigned Depth);

/// The run-time stop's message when an adjoint of the derivative of \p Fn
/// reached the shadow of a caller's block after the block was freed.
std::string lostAdjointsMessage(const llvm::Function &Fn);

/// The push of the list at depth \p Depth if \p M has it, else null.
const llvm::Function *findFreedShadowPushFn(const llvm::Module &M,
                                            unsigned Depth);

/// True if a derivative in \p M lists shadows at depth \p Depth.
bool listsFreedShadows(const llvm::Module &M, unsigned Depth);

/// The pieces of the list at depth \p Depth that \p M defines (none if no
/// derivative uses that list).
llvm::SmallVector<llvm::Function *, 4> freedListPieces(const llvm::Module &M,
                                                       unsigned Depth);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_FREEDSHADOWS_H
