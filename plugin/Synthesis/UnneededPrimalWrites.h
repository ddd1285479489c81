//===- UnneededPrimalWrites.h - writes enzyme_dupnoneed drops ---*- C++ -*-===//
//
// enzyme_dupnoneed says the caller does not need the primal memory behind a
// pointer argument, only its shadow: Enzyme's users pass an invalid pointer
// there, (double *)0x1 or null. The derivative therefore must not write
// through that pointer; its shadow writes stay. This finds the primal writes
// it may drop: stores and memset/memcpy destinations whose every underlying
// object is an enzyme_dupnoneed argument that the function never reads
// through or lets escape. An argument the function reads (`*out += ...`) or
// passes to a call keeps those writes.
//
// In forward mode, memory that is read only to compute what is written back
// into it (a gradient accumulated in place, `g[i] += ...`: Enzyme's sparse
// Hessians run forward mode over a gradient with g as enzyme_dupnoneed,
// (double *)0x1) needs none of its primal values either: updatesOnlyItself
// recognises it, also through calls to functions with bodies that use
// theirs that way (their requests then carry enzyme_dupnoneed), and
// dropSelfUpdates removes those loads and stores from the derivative once
// no tangent uses the values loaded.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_UNNEEDEDPRIMALWRITES_H
#define TAPESTRY_SYNTHESIS_UNNEEDEDPRIMALWRITES_H

#include "llvm/ADT/SmallVector.h"

namespace llvm {
class Argument;
class Function;
class Instruction;
} // namespace llvm

namespace tapestry {

struct DiffRequest;

/// The instructions of the prepared primal \p P whose clones the derivative
/// of \p R leaves out: writes only into enzyme_dupnoneed memory.
llvm::SmallVector<llvm::Instruction *, 8>
findUnneededPrimalWrites(llvm::Function &P, const DiffRequest &R);

/// Whether the memory behind \p A is read only to compute what is stored
/// back into it, and passed only to functions with bodies whose parameter
/// is used the same way (to \p Depth levels of calls).
bool updatesOnlyItself(const llvm::Argument &A, unsigned Depth = 4);

/// In the derivative \p G, removes the loads and stores through \p A (the
/// primal of an enzyme_dupnoneed argument that updatesOnlyItself) and what
/// only they use, if no other value depends on what is loaded; returns
/// whether it did.
bool dropSelfUpdates(llvm::Function &G, llvm::Argument &A);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_UNNEEDEDPRIMALWRITES_H
