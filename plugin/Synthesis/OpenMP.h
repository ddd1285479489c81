//===- OpenMP.h - OpenMP parallel regions in derivatives --------*- C++ -*-===//
//
// A parallel region is a call __kmpc_fork_call(loc, n, outlined, args...)
// that runs outlined(&gtid, &btid, args...) on every thread of a team.
// Preparation gives each region a body whose arguments are all pointers
// (shared variables, and copies of the values passed by value), so that
// every argument has a shadow or none, and turns reductions into critical
// sections the derivative can follow (OpenMPPreparation.cpp). The
// synthesizers then fork the derivative of that body (OpenMPRegions.cpp):
// forward mode forks its tangent function, with the shadows beside the
// shared pointers; reverse mode forks its augmented forward, which keeps
// one tape per thread, and in the reverse sweep forks its reverse on as many
// threads, each consuming the tape its thread number made. Adjoints go into
// memory the threads share with atomic adds.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_OPENMP_H
#define TAPESTRY_SYNTHESIS_OPENMP_H

namespace llvm {
class Function;
class FunctionType;
class Module;
} // namespace llvm

namespace tapestry {

/// Before simplification: reductions become critical sections (every
/// thread adds its partial result under the reduction's lock), and a
/// region's body called directly (an 'if' clause's serial path) is inlined.
void lowerOpenMPConstructs(llvm::Function &F);
/// After simplification: each fork call runs a body taking only pointers,
/// with the outlined function inlined into it; values passed by value are
/// passed through copies on the caller's stack.
void wrapParallelRegions(llvm::Function &F);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_OPENMP_H
