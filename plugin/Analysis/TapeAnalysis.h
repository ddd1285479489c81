//===- TapeAnalysis.h - What the reverse sweep caches or recomputes -*- C++ -*-===//
//
// The reverse sweep needs some primal values. Cheap integer and address
// arithmetic is recomputed from its operands; a load whose memory nothing in
// the function may write is reloaded; loop counters are rebuilt from a
// reverse iteration counter; only what remains is cached on the tape.
// This analysis answers the memory question with LLVM's alias analysis.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_ANALYSIS_TAPEANALYSIS_H
#define TAPESTRY_ANALYSIS_TAPEANALYSIS_H

#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class AAResults;
class Function;
class LoadInst;
} // namespace llvm

namespace tapestry {

struct TapePlan {
  /// Loads that may be repeated in the reverse sweep with the same result:
  /// no instruction of the function may write the memory they read.
  llvm::SmallPtrSet<const llvm::LoadInst *, 16> Reloadable;
};

TapePlan planTape(llvm::Function &F, llvm::AAResults &AA);

} // namespace tapestry

#endif // TAPESTRY_ANALYSIS_TAPEANALYSIS_H
