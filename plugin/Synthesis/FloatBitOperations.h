//===- FloatBitOperations.h - Float operations done on the bits -*- C++ -*-===//
//
// C code, and libraries written in it, do some floating-point operations
// on the bits. musl's fabs and copysign clear, flip, set or copy the sign
// bit of a double copied into a uint64_t (a union, memcpy), and SSE2 code
// (Eigen's pselect, under its pmin, pmax and linspaced packets) chooses
// between two vectors lane by lane with a compare's all-ones mask:
// (m & a) | (~m & b). The values are fabs(x), -x, -fabs(x), copysign(x, y)
// and select(c, a, b), and have their derivatives; as integer operations
// they would have none. This rewrites them as those operations, ahead of
// retypeBitcastCopies, which makes the integer copies of doubles
// floating-point loads.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_FLOATBITOPERATIONS_H
#define TAPESTRY_SYNTHESIS_FLOATBITOPERATIONS_H

namespace llvm {
class Function;
} // namespace llvm

namespace tapestry {

/// Rewrites each bitcast to a floating-point type of `and x, ~sign`, `xor
/// x, sign`, `or x, sign`, `or (and x, ~sign), (and y, sign)`, `and x, m`,
/// `and x, ~m` and `or (and x, m), (and y, ~m)` (m the sign extension of a
/// condition, lane by lane) as fabs, fneg, fneg of fabs, copysign and
/// select of x (and y) bitcast to that type. Returns true if it changed
/// anything.
bool lowerFloatBitOperations(llvm::Function &F);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_FLOATBITOPERATIONS_H
