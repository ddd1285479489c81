//===- TapeOrigins.h - Which augmented forward filled a tape ----*- C++ -*-===//
//
// A reverse must run on a tape its own request's augmented forward filled:
// Passes/SplitCallSites.cpp compares the requests, and __enzyme_fwdsplit
// needs the values its augmented forward saw. Both start from the
// __enzyme_augmentfwd calls found here: the one whose result a tape value
// is (through struct members, casts and the local variable a -O0 program
// keeps it in), and all of those in a function (for tapes in a caller's
// buffer, which the calls name as an argument instead).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SPLIT_TAPEORIGINS_H
#define TAPESTRY_SPLIT_TAPEORIGINS_H

#include "llvm/ADT/SmallVector.h"

namespace llvm {
class CallBase;
class Function;
class Value;
} // namespace llvm

namespace tapestry {

/// The __enzyme_augmentfwd call whose result \p V is (through struct
/// members, casts and a local variable it was stored in), or null when
/// there is none or more than one.
llvm::CallBase *augmentedCallOf(llvm::Value *V, unsigned Depth = 0);

/// The __enzyme_augmentfwd calls in \p F, in instruction order.
llvm::SmallVector<llvm::CallBase *, 2> augmentedForwardCalls(llvm::Function &F);

} // namespace tapestry

#endif // TAPESTRY_SPLIT_TAPEORIGINS_H
