//===- UnneededPrimalWrites.h - writes enzyme_dupnoneed drops ---*- C++ -*-===//
//
// enzyme_dupnoneed says the caller does not need the primal memory behind a
// pointer argument, only its shadow: Enzyme's users pass an invalid pointer
// there, (double *)0x1 or null. The derivative therefore must not write
// through that pointer; its shadow writes stay. This finds the primal writes
// it may drop: stores and memset/memcpy destinations whose every underlying
// object is an enzyme_dupnoneed argument that the function never reads
// through or lets escape. An argument the function reads (`*out += ...`) or
// passes to a call keeps its primal writes, which is then what enzyme_dup
// does.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_UNNEEDEDPRIMALWRITES_H
#define TAPESTRY_SYNTHESIS_UNNEEDEDPRIMALWRITES_H

#include "llvm/ADT/SmallVector.h"

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace tapestry {

struct DiffRequest;

/// The instructions of the prepared primal \p P whose clones the derivative
/// of \p R leaves out: writes only into enzyme_dupnoneed memory.
llvm::SmallVector<llvm::Instruction *, 8>
findUnneededPrimalWrites(llvm::Function &P, const DiffRequest &R);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_UNNEEDEDPRIMALWRITES_H
