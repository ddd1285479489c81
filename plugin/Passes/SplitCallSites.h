//===- SplitCallSites.h - Split mode's request calls ------------*- C++ -*-===//
//
// The request calls of split mode once their split derivative exists:
// __enzyme_augmentfwd and __enzyme_reverse (whose tape must come from the
// augmented forward of the same request: its origin is checked),
// __enzyme_augmentsize (the tape's size as a constant), __tapestry_thunk (a
// constant descriptor with a reverse that writes its adjoints to memory),
// and __enzyme_fwdsplit, whose tangent Tapestry computes by running the
// primal again, which is allowed only where the values it reads provably
// are those its augmented forward saw.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_SPLITCALLSITES_H
#define TAPESTRY_PASSES_SPLITCALLSITES_H

#include "Passes/RequestDecoder.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include <string>

namespace llvm {
class CallBase;
} // namespace llvm

namespace tapestry {

class DerivativeCache;

/// Resolves split-mode request \p CB of kind \p Kind (any split entry point
/// but __enzyme_fwdsplit), decoded as \p D: synthesises its split
/// derivative through \p Cache and rewrites the call, or reports why not.
void resolveSplitRequest(llvm::CallBase &CB, EntryPoint Kind,
                         const DecodedCall &D, DerivativeCache &Cache);

/// For the __enzyme_fwdsplit calls that may not see the values their
/// augmented forward saw: why (the function runs again for the tangent).
using ForwardSplitChecks = llvm::DenseMap<const llvm::CallBase *, std::string>;

/// Decides, for each __enzyme_fwdsplit among \p Calls, whether the memory
/// its function reads may change after its __enzyme_augmentfwd: before any
/// request is rewritten, so that the requests in between (another
/// __enzyme_fwdsplit on the same tape) are still recognisable.
ForwardSplitChecks checkForwardSplits(llvm::ArrayRef<llvm::CallBase *> Calls);

/// Resolves __enzyme_fwdsplit call \p CB, decoded as \p D: a forward
/// derivative after the tape of its augmented forward, when running the
/// primal again computes the values that augmented forward saw (\p Checks,
/// from checkForwardSplits).
void resolveForwardSplit(llvm::CallBase &CB, const DecodedCall &D,
                         const ForwardSplitChecks &Checks,
                         DerivativeCache &Cache);

} // namespace tapestry

#endif // TAPESTRY_PASSES_SPLITCALLSITES_H
