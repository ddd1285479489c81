//===- FixedPoints.h - Enzyme's fixed-point loops, as loops -----*- C++ -*-===//
//
// Enzyme's <enzyme/fixed_point.h>:
//   __enzyme_fixed_point(step, enzyme_fp_state, z, bytes, ...,
//                        [enzyme_fp_reduction, r,] [enzyme_fp_max_iters, n,]
//                        [enzyme_checkpoint_region, ptr, bytes,]... args...)
// runs `int64_t i = 0; while (step(i++, args...));`, and
//   __enzyme_set_fixed_point(reduction, max_iters, control, state, bytes...)
// marks the loop it is called in as such an iteration. Tapestry lowers the
// first into that loop and erases the second, and differentiates the
// iterations themselves (docs/enzyme-compatibility.md says what that means
// for the markers and the tape).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_FIXEDPOINTS_H
#define TAPESTRY_PASSES_FIXEDPOINTS_H

namespace llvm {
class Module;
} // namespace llvm

namespace tapestry {

/// Lowers every call of __enzyme_fixed_point in \p M into its loop and
/// erases every call of __enzyme_set_fixed_point, reporting what cannot
/// be lowered (an unknown marker, a step of the wrong type, a control
/// function) as an error at the call. True if anything changed.
bool lowerFixedPoints(llvm::Module &M);

} // namespace tapestry

#endif // TAPESTRY_PASSES_FIXEDPOINTS_H
