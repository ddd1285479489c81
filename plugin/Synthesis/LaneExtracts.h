//===- LaneExtracts.h - Vector lanes read through integers ------*- C++ -*-===//
//
// SROA and InstCombine sometimes read lanes of a floating-point vector
// through integers: `bitcast <8 x double> %v to i512`, an `lshr` by a
// multiple of 64, a `trunc` to i64 (or i512) and a `bitcast` back to double
// (or <8 x double>), with more shifts and truncations between them where
// GVN reads a lane of a narrower store of the vector (`lshr (trunc i512 to
// i256), 128`). The value is the lanes themselves, but the integer
// steps would have no derivative. This rewrites such chains as the
// `extractelement` (`shufflevector`) they are. GVN may put a phi between
// the first bitcast and the shift (the bitcasts of two vectors merged); such
// a phi becomes a phi of the vectors first. GVN also reads the int members
// of structs out of a wide floating-point vector load that covers them
// (`trunc (lshr (bitcast <16 x double> to i1024), 320) to i32`): such an
// integer is loaded again from its own bytes. SSE2 code moves the lanes of
// a __m128d with integer shuffles (`_mm_shuffle_epi32` on a cast vector):
// a shuffle of integers that moves whole floating-point lanes becomes the
// shuffle of the floating-point vectors.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_LANEEXTRACTS_H
#define TAPESTRY_SYNTHESIS_LANEEXTRACTS_H

#include <cstdint>
#include <optional>

namespace llvm {
class Function;
class Value;
} // namespace llvm

namespace tapestry {

/// Bits [Shift, Shift + width) of the integer Root.
struct ShiftedBits {
  llvm::Value *Root;
  uint64_t Shift;
};
/// If the integer \p V is another integer shifted right by constants and
/// truncated, in any order, with no bit of \p V one of the zeros a shift
/// brought in: that integer and the shift.
std::optional<ShiftedBits> shiftedBitsOf(llvm::Value *V);

/// Rewrites each read of floating-point lanes through integers in \p F as
/// an extractelement or shufflevector (little-endian targets only).
/// Returns true if it changed anything.
bool restoreLaneExtracts(llvm::Function &F);

} // namespace tapestry

#endif
