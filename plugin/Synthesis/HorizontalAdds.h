//===- HorizontalAdds.h - x86 horizontal adds as generic IR -----*- C++ -*-===//
//
// SSE3 and AVX horizontal adds and subtracts (_mm_hadd_pd, _mm256_hadd_pd,
// ...) reach the IR as target intrinsics (llvm.x86.sse3.hadd.pd,
// llvm.x86.avx.hadd.pd.256, ...), which have no derivative. Eigen's
// reductions use them when compiled for AVX-512 machines (-march=native):
// each is a pair of lane selections added or subtracted lane by lane,
// which this rewrites them as before differentiation.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_HORIZONTALADDS_H
#define TAPESTRY_SYNTHESIS_HORIZONTALADDS_H

namespace llvm {
class Function;
} // namespace llvm

namespace tapestry {

/// Rewrites each call of an x86 horizontal add or subtract of floating-point
/// vectors in \p F as two shufflevectors of its operands and an fadd (fsub).
/// Returns true if it changed anything.
bool lowerHorizontalAdds(llvm::Function &F);

} // namespace tapestry

#endif
