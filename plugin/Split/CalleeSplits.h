//===- CalleeSplits.h - A split callee as its caller calls it ---*- C++ -*-===//
//
// A reverse-mode derivative that calls a function it does not inline runs
// that function's split halves: an augmented forward that returns a fresh
// tape (and the primal result) and a reverse that consumes and frees it
// (CalleeSplit, Synthesis/SynthesizerBase.h). A split caller instead keeps
// its callees' tapes in per-call-site lists for its own release, through
// the "kept" variants. This file builds those wrappers around a callee's
// SplitDerivative; the Driver's DerivativeCache decides when (it declares
// them before the callee is differentiated, so that a recursive callee's
// derivative can call them, and defines them once its split exists).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SPLIT_CALLEESPLITS_H
#define TAPESTRY_SPLIT_CALLEESPLITS_H

#include "Core/DiffRequest.h"
#include "Split/TapeSplitter.h"
#include "Synthesis/SynthesizerBase.h"

namespace tapestry {

/// The wrappers of the split of \p R (a split request without the primal
/// result), declared without bodies.
CalleeSplit declareCalleeSplit(const DiffRequest &R);

/// Gives the wrappers declared by declareCalleeSplit their bodies around
/// the callee's split \p S, infers what the halves do with their pointer
/// parameters (Analysis/ParamAccess.h) and records in \p CS why the
/// callee's reverse may not run twice on one tape, if it may not.
void defineCalleeSplit(CalleeSplit &CS, const SplitDerivative &S);

/// Removes the wrappers of a callee whose split could not be made; their
/// uses become poison (an error has been reported).
void discardCalleeSplit(CalleeSplit &CS);

} // namespace tapestry

#endif // TAPESTRY_SPLIT_CALLEESPLITS_H
