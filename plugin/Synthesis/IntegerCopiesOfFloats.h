//===- IntegerCopiesOfFloats.h - Doubles moved as integers ------*- C++ -*-===//
//
// Optimised C moves a double through an integer of its size: a union's
// uint64_t member, a memcpy into a uint64_t, an aggregate copy that the
// simplifier forwarded to a later read of the double, a one-element memcpy
// the SLP vectoriser built a vector of doubles from. The bytes are the
// double's, but derivatives cannot flow through integers. This rewrites
// each floating-point use of such an integer as a use of a floating-point
// load of the same bytes (or of the double itself), leaving the integer
// loads only copying bytes, which ReverseByteCopies differentiates.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_INTEGERCOPIESOFFLOATS_H
#define TAPESTRY_SYNTHESIS_INTEGERCOPIESOFFLOATS_H

namespace llvm {
class Function;
} // namespace llvm

namespace tapestry {

/// Builds each vector of doubles made by inserting integers into an
/// integer vector and bitcasting it in the floating-point type instead,
/// from bitcasts of the inserted elements (which retypeBitcastCopies then
/// turns into loads of doubles).
void retypeIntegerVectorBuilds(llvm::Function &F);

/// Stores each double bitcast to an integer as the double itself, and
/// replaces each bitcast to a floating-point type of an integer load (or of
/// bytes shifted out of one, or of phis and selects among such loads,
/// constants and integers bitcast from that type) by a load of the bytes as
/// that type at the same point. A store of such a choice (or of an integer
/// minimum or maximum) stores the choice among floating-point loads where
/// the type is known: from a bitcast in the choice, or, with \p CallersOf
/// (the function \p F is a copy of), from what its callers hold in the
/// memory written and read.
void retypeBitcastCopies(llvm::Function &F,
                         llvm::Function *CallersOf = nullptr);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_INTEGERCOPIESOFFLOATS_H
