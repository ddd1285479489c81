//===- AtomicFloatUpdates.h - CAS loops as atomic adds ----------*- C++ -*-===//
//
// libstdc++ implements std::atomic<double>::fetch_add, fetch_sub, += and -=
// (and std::atomic_ref<double>'s) as a compare-exchange loop on the value's
// bits: load the bits, add as a double, try to swap the new bits in, retry
// with the bits found on failure; load() reads the bits as an integer. As
// integer operations they carry no derivative. A loop whose every attempt
// swaps in the bits of old + v (old - v) for the same v, and retries on
// failure, is one atomic add: this rewrites its attempts as atomicrmw
// fadd (fsub), which differentiate as OpenMP's atomic updates do, and the
// atomic integer loads and stores of a location only ever read and written
// as such a double's bits as loads and stores of the double.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_ATOMICFLOATUPDATES_H
#define TAPESTRY_SYNTHESIS_ATOMICFLOATUPDATES_H

namespace llvm {
class Function;
} // namespace llvm

namespace tapestry {

/// Rewrites the compare-exchange loops of \p F that add to a floating-point
/// value as atomicrmw fadd/fsub. Returns true if it changed anything.
bool lowerAtomicFloatUpdates(llvm::Function &F);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_ATOMICFLOATUPDATES_H
