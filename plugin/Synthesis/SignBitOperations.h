//===- SignBitOperations.h - fabs, fneg, copysign on the bits ---*- C++ -*-===//
//
// C code, and libraries written in it (musl's fabs and copysign), change a
// double's sign through its bits: the double copied into a uint64_t (a
// union, memcpy), the sign bit cleared, flipped, set or copied from another
// double with integer and/xor/or, and copied back. The value is fabs(x),
// -x, -fabs(x) or copysign(x, y), and has their derivatives; as integer
// operations it would have none. This rewrites them as those operations,
// ahead of retypeBitcastCopies, which makes the integer copies of doubles
// floating-point loads.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_SIGNBITOPERATIONS_H
#define TAPESTRY_SYNTHESIS_SIGNBITOPERATIONS_H

namespace llvm {
class Function;
} // namespace llvm

namespace tapestry {

/// Rewrites each `bitcast (and x, ~sign)`, `(xor x, sign)`, `(or x, sign)`
/// and `(or (and x, ~sign), (and y, sign))` to a floating-point type of the
/// integers' width as fabs, fneg, fneg of fabs and copysign of x (and y)
/// bitcast to that type. Returns true if it changed anything.
bool lowerSignBitOperations(llvm::Function &F);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_SIGNBITOPERATIONS_H
