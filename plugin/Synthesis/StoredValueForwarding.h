//===- StoredValueForwarding.h - Recompute what a loop stored ---*- C++ -*-===//
//
// A scratch array that one loop fills and later loops read (GMM's
// `xc[i] = x[i] - mu[i]`, then `Q xc`) is rewritten for every iteration of
// the loop around them, so the reverse sweep cannot read it again: each load
// of it is taped. When what the first loop stored is cheap to compute again
// from memory nothing writes, each later load is replaced by that
// computation, at the same index, before differentiation; the reverse sweep
// then recomputes it from reloads instead of taping it, and stores nothing
// reads any more are removed. The primal's values are unchanged.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_STOREDVALUEFORWARDING_H
#define TAPESTRY_SYNTHESIS_STOREDVALUEFORWARDING_H

#include "llvm/IR/PassManager.h"

namespace tapestry {

/// Replaces each load of \p F that reads, at loop iteration k, what a store
/// in an earlier sibling loop wrote at its iteration k (same address
/// recurrence, the earlier loop covering every index read, nothing else
/// writing that memory in between) by the stored value computed again at
/// iteration k, when that value is cheap arithmetic on constants, values
/// available at the load, the loop's indices and loads of memory nothing in
/// \p F writes. Returns true if it changed anything.
bool forwardStoredValues(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_STOREDVALUEFORWARDING_H
