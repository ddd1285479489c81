//===- LoopBlockLists.h - Blocks a split allocates in loops -----*- C++ -*-===//
//
// A heap block the function allocates inside a loop (one per iteration) and
// frees (or leaves for the reverse to free) is found by the reverse sweep in
// a record array, one per iteration. For a split's tape to own such blocks,
// so that its reverse can run again, the forward half also links each block
// into a list as it allocates it: 32-byte nodes {ptr next, ptr block, ptr
// shadow, i64 shadow bytes}, whose head is an entry slot of the derivative
// that becomes a tape field. A reverse over a tape that owns the blocks
// zeroes their shadows through the list before it starts (the forward half
// left them zero) and frees nothing; the release frees the blocks, their
// shadows and the nodes. Where the tape cannot own them (Split/
// ScratchBlocks.cpp), the links are dropped from the augmented forward.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_LOOPBLOCKLISTS_H
#define TAPESTRY_SYNTHESIS_LOOPBLOCKLISTS_H

#include "Core/AllocationFunctions.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace tapestry {

/// void @tapestry.loopblocks.link(ptr head, ptr block, ptr shadow, i64
/// bytes): a new node for the block in front of the list at \p head.
llvm::Function *getLoopBlockLinkFn(llvm::Module &M);
/// void @tapestry.loopblocks.zero(ptr list): zeroes each listed shadow.
llvm::Function *getLoopBlockZeroFn(llvm::Module &M);
/// void @tapestry.loopblocks.release.<dealloc>(ptr list): frees each listed
/// block and shadow with \p Dealloc (free, operator delete or delete[]),
/// and the nodes.
llvm::Function *getLoopBlockReleaseFn(llvm::Module &M, HeapFunction Dealloc,
                                      uint64_t Align = 0);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_LOOPBLOCKLISTS_H
