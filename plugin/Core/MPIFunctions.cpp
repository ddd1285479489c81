//===- MPIFunctions.cpp - Recognise calls to MPI routines -----------------===//
//
// Implements MPIFunctions.h: a table of the supported MPI routines with the
// operand index of each buffer, count, datatype, peer, tag, communicator and
// request (findMPICall), the operands a routine writes, the lists of inactive
// and unsupported routines, and the classification of Open MPI's datatype and
// operation handles by the globals they point to. Only recognition: the
// derivative code is Synthesis/MPIRules.cpp and runtime/tapestry_mpi.c.
//
//===----------------------------------------------------------------------===//
#include "Core/MPIFunctions.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace tapestry {

namespace {
using A = MPIArg;

struct Signature {
  const char *Name;
  MPIRoutine Routine;
  /// The logical argument at each position.
  std::initializer_list<MPIArg> Args;
};

// The C bindings of MPI 3 (the standard's order of arguments).
const Signature Signatures[] = {
    {"MPI_Send",
     MPIRoutine::Send,
     {A::Buf, A::Count, A::Type, A::Dest, A::Tag, A::Comm}},
    {"MPI_Recv",
     MPIRoutine::Recv,
     {A::Buf, A::Count, A::Type, A::Source, A::Tag, A::Comm, A::Status}},
    {"MPI_Isend",
     MPIRoutine::Isend,
     {A::Buf, A::Count, A::Type, A::Dest, A::Tag, A::Comm, A::Request}},
    {"MPI_Irecv",
     MPIRoutine::Irecv,
     {A::Buf, A::Count, A::Type, A::Source, A::Tag, A::Comm, A::Request}},
    {"MPI_Wait", MPIRoutine::Wait, {A::Request, A::Status}},
    {"MPI_Waitall",
     MPIRoutine::Waitall,
     {A::NumRequests, A::Request, A::Status}},
    {"MPI_Sendrecv",
     MPIRoutine::Sendrecv,
     {A::SendBuf, A::SendCount, A::SendType, A::Dest, A::SendTag, A::RecvBuf,
      A::RecvCount, A::RecvType, A::Source, A::RecvTag, A::Comm, A::Status}},
    {"MPI_Bcast",
     MPIRoutine::Bcast,
     {A::Buf, A::Count, A::Type, A::Root, A::Comm}},
    {"MPI_Reduce",
     MPIRoutine::Reduce,
     {A::SendBuf, A::RecvBuf, A::Count, A::Type, A::Op, A::Root, A::Comm}},
    {"MPI_Allreduce",
     MPIRoutine::Allreduce,
     {A::SendBuf, A::RecvBuf, A::Count, A::Type, A::Op, A::Comm}},
    {"MPI_Gather",
     MPIRoutine::Gather,
     {A::SendBuf, A::SendCount, A::SendType, A::RecvBuf, A::RecvCount,
      A::RecvType, A::Root, A::Comm}},
    {"MPI_Scatter",
     MPIRoutine::Scatter,
     {A::SendBuf, A::SendCount, A::SendType, A::RecvBuf, A::RecvCount,
      A::RecvType, A::Root, A::Comm}},
    {"MPI_Allgather",
     MPIRoutine::Allgather,
     {A::SendBuf, A::SendCount, A::SendType, A::RecvBuf, A::RecvCount,
      A::RecvType, A::Comm}},
};
} // namespace

std::optional<MPICall> findMPICall(const CallBase &CB) {
  const Function *F = CB.getCalledFunction();
  if (!F || !F->isDeclaration() || !F->getName().starts_with("MPI_"))
    return std::nullopt;
  for (const Signature &S : Signatures) {
    if (F->getName() != S.Name || CB.arg_size() != S.Args.size())
      continue;
    MPICall C;
    C.Routine = S.Routine;
    C.Name = F->getName();
    for (int &I : C.Index)
      I = -1;
    int Pos = 0;
    for (MPIArg Arg : S.Args)
      C.Index[(unsigned)Arg] = Pos++;
    // Dest or Source is also the peer; Count/Type of one-buffer routines.
    if (C.has(A::Dest) && !C.has(A::Source))
      C.Index[(unsigned)A::Peer] = C.Index[(unsigned)A::Dest];
    if (C.has(A::Source) && !C.has(A::Dest))
      C.Index[(unsigned)A::Peer] = C.Index[(unsigned)A::Source];
    return C;
  }
  return std::nullopt;
}

SmallVector<unsigned, 2> mpiWrittenOperands(const CallBase &CB) {
  SmallVector<unsigned, 2> Out;
  std::optional<MPICall> MC = findMPICall(CB);
  if (!MC)
    return Out;
  auto Add = [&](MPIArg Buf, MPIArg Type) {
    if (MC->has(Buf) && classifyMPIType(CB.getArgOperand(MC->index(Type))) !=
                            MPITypeKind::Inactive)
      Out.push_back(MC->index(Buf));
  };
  switch (MC->Routine) {
  case MPIRoutine::Recv:
  case MPIRoutine::Irecv:
  case MPIRoutine::Bcast:
    Add(A::Buf, A::Type);
    break;
  case MPIRoutine::Reduce:
  case MPIRoutine::Allreduce:
    Add(A::RecvBuf, A::Type);
    break;
  case MPIRoutine::Sendrecv:
  case MPIRoutine::Gather:
  case MPIRoutine::Scatter:
  case MPIRoutine::Allgather:
    Add(A::RecvBuf, A::RecvType);
    break;
  default:
    break;
  }
  return Out;
}

bool isInactiveMPIFunction(StringRef Name) {
  if (Name.starts_with("PMPI_"))
    Name = Name.drop_front(1);
  if (!Name.starts_with("MPI_"))
    return false;
  return StringSwitch<bool>(Name)
      .Cases("MPI_Init", "MPI_Init_thread", "MPI_Finalize", "MPI_Initialized",
             "MPI_Finalized", true)
      .Cases("MPI_Comm_rank", "MPI_Comm_size", "MPI_Barrier", "MPI_Abort",
             "MPI_Wtime", true)
      .Cases("MPI_Wtick", "MPI_Get_processor_name", "MPI_Comm_dup",
             "MPI_Comm_split", "MPI_Comm_free", true)
      .Cases("MPI_Query_thread", "MPI_Is_thread_main", "MPI_Get_version",
             "MPI_Error_string", "MPI_Cart_create", true)
      .Cases("MPI_Cart_coords", "MPI_Cart_rank", "MPI_Cart_shift",
             "MPI_Dims_create", "MPI_Comm_group", true)
      .Cases("MPI_Group_free", "MPI_Group_incl", "MPI_Comm_create",
             "MPI_Get_count", "MPI_Type_size", true)
      .Default(false);
}

bool isUnsupportedMPIFunction(StringRef Name) {
  return (Name.starts_with("MPI_") || Name.starts_with("PMPI_")) &&
         !isInactiveMPIFunction(Name);
}

StringRef mpiSupportNote() {
  return "Tapestry has no derivative for (it differentiates MPI_Send, "
         "MPI_Recv, MPI_Isend, MPI_Irecv, MPI_Wait, MPI_Waitall, "
         "MPI_Sendrecv, MPI_Bcast, MPI_Reduce and MPI_Allreduce with MPI_SUM, "
         "MPI_PROD, MPI_MAX or MPI_MIN, MPI_Gather, MPI_Scatter and "
         "MPI_Allgather of MPI_DOUBLE or MPI_FLOAT data); use those, or move "
         "the call out of the differentiated function, or register a "
         "derivative for a function that makes it "
         "(__enzyme_register_gradient_NAME)";
}

MPITypeKind classifyMPIType(const Value *Datatype) {
  auto *GV = dyn_cast<GlobalVariable>(Datatype->stripPointerCasts());
  if (!GV || !GV->getName().starts_with("ompi_mpi_"))
    return MPITypeKind::Unknown;
  StringRef T = GV->getName().drop_front(strlen("ompi_mpi_"));
  if (T == "double" || T == "float")
    return MPITypeKind::Active;
  bool Integer =
      StringSwitch<bool>(T)
          .Cases("int", "unsigned", "long", "unsigned_long", "long_long_int",
                 true)
          .Cases("unsigned_long_long", "char", "signed_char", "unsigned_char",
                 "short", true)
          .Cases("unsigned_short", "byte", "int8_t", "int16_t", "int32_t", true)
          .Cases("int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", true)
          .Cases("c_bool", "aint", "offset", "count", "wchar", true)
          .Default(false);
  return Integer ? MPITypeKind::Inactive : MPITypeKind::Unknown;
}

StringRef mpiOpName(const Value *Op) {
  auto *GV = dyn_cast<GlobalVariable>(Op->stripPointerCasts());
  if (!GV || !GV->getName().starts_with("ompi_mpi_op_"))
    return "";
  return GV->getName().drop_front(strlen("ompi_mpi_op_"));
}

} // namespace tapestry
