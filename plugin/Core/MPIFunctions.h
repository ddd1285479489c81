//===- MPIFunctions.h - Recognise calls to MPI routines ---------*- C++ -*-===//
//
// MPI routines are differentiated by name, as BLAS routines are: their
// derivatives communicate again, through the program's own MPI library
// (Synthesis/MPIRules.cpp, runtime/tapestry_mpi.c). This file recognises a
// call, says where each of its arguments is, and which MPI routines are
// inactive (they move no floating-point data: ranks, sizes, barriers,
// timers) or have no derivative rule.
//
// Open MPI spells its handles as addresses of globals: MPI_DOUBLE is
// &ompi_mpi_double, MPI_SUM &ompi_mpi_op_sum, MPI_COMM_WORLD
// &ompi_mpi_comm_world, and MPI_IN_PLACE is (void *)1.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_MPIFUNCTIONS_H
#define TAPESTRY_CORE_MPIFUNCTIONS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace llvm {
class CallBase;
class Value;
} // namespace llvm

namespace tapestry {

enum class MPIRoutine {
  Send,
  Recv,
  Isend,
  Irecv,
  Wait,
  Waitall,
  Sendrecv,
  Bcast,
  Reduce,
  Allreduce,
  Gather,
  Scatter,
  Allgather
};

/// The logical arguments of the supported routines.
enum class MPIArg {
  Buf, // Send, Recv, Isend, Irecv, Bcast
  SendBuf,
  SendCount,
  SendType,
  RecvBuf,
  RecvCount,
  RecvType,
  Count,
  Type,
  Peer, // dest or source
  Dest,
  Source,
  Tag,
  SendTag,
  RecvTag,
  Root,
  Op,
  Comm,
  Status,
  Request,
  NumRequests, // Waitall
  NumArgs
};

struct MPICall {
  MPIRoutine Routine;
  /// The routine's name as called ("MPI_Send").
  llvm::StringRef Name;
  int Index[(unsigned)MPIArg::NumArgs];

  bool has(MPIArg A) const { return Index[(unsigned)A] >= 0; }
  unsigned index(MPIArg A) const { return Index[(unsigned)A]; }
};

/// The supported MPI call \p CB makes (to a declaration of that name with
/// that argument count), or nothing.
std::optional<MPICall> findMPICall(const llvm::CallBase &CB);
inline bool isMPICall(const llvm::CallBase &CB) {
  return findMPICall(CB).has_value();
}

/// The operands of \p CB (a supported MPI call) that point to memory it
/// writes with floating-point data (receive buffers of MPI_DOUBLE or
/// MPI_FLOAT, or of a datatype only known at run time).
llvm::SmallVector<unsigned, 2> mpiWrittenOperands(const llvm::CallBase &CB);

/// True for MPI routines through which no floating-point data flows
/// (MPI_Init, MPI_Comm_rank, MPI_Barrier, MPI_Wtime, ...).
bool isInactiveMPIFunction(llvm::StringRef Name);

/// True if \p Name is an MPI routine (MPI_ or PMPI_) that is neither
/// supported nor inactive.
bool isUnsupportedMPIFunction(llvm::StringRef Name);

/// The end of the message for an unsupported MPI routine: "Tapestry has
/// no derivative for (it differentiates ...); ...".
llvm::StringRef mpiSupportNote();

/// What a datatype operand is known to be: an MPI_DOUBLE or MPI_FLOAT
/// (active), an integer or byte type (inactive), or unknown (a value only
/// known when the program runs, or another predefined type).
enum class MPITypeKind { Active, Inactive, Unknown };
MPITypeKind classifyMPIType(const llvm::Value *Datatype);

/// The name of a predefined Open MPI reduction operation (ompi_mpi_op_sum
/// gives "sum"), or "" for a value not known at compile time.
llvm::StringRef mpiOpName(const llvm::Value *Op);

} // namespace tapestry

#endif // TAPESTRY_CORE_MPIFUNCTIONS_H
