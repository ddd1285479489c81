//===- MPIRules.h - Derivatives of MPI calls, by communicating --*- C++ -*-===//
//
// An MPI call's derivative communicates again, through the program's own
// MPI library, by calling Tapestry's runtime (runtime/tapestry_mpi.c, in
// libtapestry-rt): the adjoint of a send is a receive of the adjoint, of a
// broadcast a sum-reduction to the root, of a sum-allreduce an allreduce of
// the adjoints, and so on; forward mode sends tangents beside values. The
// rules are member functions of the synthesizers
// (ForwardModeSynthesizer::visitMPICall,
// ReverseModeSynthesizer::augmentMPICalls/reverseMPICall, in MPIRules.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_MPIRULES_H
#define TAPESTRY_SYNTHESIS_MPIRULES_H

#include "Core/MPIFunctions.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class Value;
} // namespace llvm

namespace tapestry {

/// What the forward sweep of a reverse-mode derivative keeps of one MPI
/// call for its reverse: the source and tag a receive matched, the records
/// of non-blocking requests (per lane), a reduction's partials.
struct MPIForward {
  llvm::Value *Source = nullptr;
  llvm::Value *Tag = nullptr;
  llvm::SmallVector<llvm::Value *, 2> Records;
};

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_MPIRULES_H
