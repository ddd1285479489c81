//===- Rerun.h - Can a function run again on what it left? ------*- C++ -*-===//
//
// Tapestry's __enzyme_fwdsplit computes the tangent by running the primal
// again, after __enzyme_augmentfwd ran it once (Enzyme reads the values
// from the tape instead). That gives the same values only if the second run
// reads what the first one read: the function must not write memory it
// reads (an in-place update such as x[i] *= 2), nor free memory it did not
// allocate, nor call a function whose effects cannot be seen. This analysis
// finds, conservatively, why a run could differ.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SPLIT_RERUN_H
#define TAPESTRY_SPLIT_RERUN_H

#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <string>

namespace llvm {
class Function;
class Value;
} // namespace llvm

namespace tapestry {

/// Why a second run of \p F on the arguments \p CallArgs (the values at the
/// call, for aliasing between them) could compute other values than the
/// first, in source terms; nullopt if it cannot.
std::optional<std::string>
whyRerunMayDiffer(const llvm::Function &F,
                  llvm::ArrayRef<llvm::Value *> CallArgs);

} // namespace tapestry

#endif // TAPESTRY_SPLIT_RERUN_H
