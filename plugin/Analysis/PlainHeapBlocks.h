//===- PlainHeapBlocks.h - Heap blocks no derivative enters -----*- C++ -*-===//
//
// A heap block that only ever holds integers computed without floating-point
// data (indices, counts, flags, the branch records of a reverse sweep)
// carries no derivative and needs no shadow. Shadowing it anyway costs an
// allocation, its zeroing and its release per call: for a reverse
// derivative that is differentiated again (a Hessian by forward over
// reverse), a calloc of the size of its record arrays every call, whose
// fresh pages fault on the first touch.
//
// A block qualifies only when everything done with the pointers into it is
// known: addresses computed from them (getelementptr, phi, select, merged
// only with other such blocks or null), integer loads and stores through
// them, comparisons, the block's release, malloc_usable_size, lifetime
// markers, memset of a constant, and memcpy/memmove from one such block to
// another (realloc lowered). So does a library object's: the pointers
// passed to the library's inactive functions (Core/KnownInactive.h: a
// `new std::ofstream` constructed, written to and closed; they keep text
// and bookkeeping there, never a derivative), and its virtual table read
// only to call the library's virtual functions (its destructor through
// `delete`, a stream buffer's xsputn) with the object's own pointers,
// constants and integers. Anything else (a pointer stored, passed to
// another call, turned into an integer, returned) keeps the shadow. And
// every integer stored or passed must be free of floating-point bits:
// computed from constants, integer arguments, comparisons, float-to-integer
// conversions and integers loaded from such blocks by integer arithmetic,
// never from a float's bits or an integer loaded from other memory (which
// may be a double copied as an i64).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_ANALYSIS_PLAINHEAPBLOCKS_H
#define TAPESTRY_ANALYSIS_PLAINHEAPBLOCKS_H

#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace tapestry {

/// The allocation calls of \p F whose blocks hold only integers free of
/// floating-point bits, as above: they need no shadow.
llvm::SmallPtrSet<const llvm::CallBase *, 4>
findPlainHeapBlocks(const llvm::Function &F);

} // namespace tapestry

#endif // TAPESTRY_ANALYSIS_PLAINHEAPBLOCKS_H
