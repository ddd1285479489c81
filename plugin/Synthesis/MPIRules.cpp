//===- MPIRules.cpp - Derivatives of MPI calls ----------------------------===//
//
// Each rule is a call of a runtime function __tapestry_mpi_<routine>_<fwd,
// aug,rev> (runtime/tapestry_mpi.c) per lane, with the lane's shadows of
// the call's buffers (null where a buffer has none: the runtime then
// communicates zeros, so that partners still match) and the call's own
// counts, datatypes, ranks, tags, operations and communicators, which are
// inactive. Forward mode communicates tangents after the primal call
// (reductions before it: MPI_PROD, MPI_MAX and MPI_MIN need the inputs an
// in-place call overwrites); reverse mode keeps in the forward sweep what
// its reverse needs: the source and tag a receive matched (from its
// status), a record per non-blocking request (in the request's shadow
// until its wait), a reduction's partial derivatives.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/MPIRules.h"

#include "Analysis/ActivityAnalysis.h"
#include "Core/Diagnostics.h"
#include "Synthesis/ForwardModeSynthesizer.h"
#include "Synthesis/ReverseModeSynthesizer.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

using A = MPIArg;

static Value *operand(const CallBase &CB, const MPICall &MC, MPIArg Arg) {
  return CB.getArgOperand(MC.index(Arg));
}

/// False if every datatype the call names is known to carry no derivative
/// (MPI_INT, ...): the call is left as it is.
static bool isActiveMPICall(const CallBase &CB, const MPICall &MC) {
  bool Typed = false;
  for (MPIArg Arg : {A::Type, A::SendType, A::RecvType}) {
    if (!MC.has(Arg))
      continue;
    Typed = true;
    if (classifyMPIType(operand(CB, MC, Arg)) != MPITypeKind::Inactive)
      return true;
  }
  return !Typed; // waits
}

static bool isNonBlocking(MPIRoutine R) {
  return R == MPIRoutine::Isend || R == MPIRoutine::Irecv;
}
static bool isWait(MPIRoutine R) {
  return R == MPIRoutine::Wait || R == MPIRoutine::Waitall;
}

/// Rejects what the rules do not cover; true if \p CB can be
/// differentiated.
template <class Fail>
static bool checkMPICall(const CallBase &CB, const MPICall &MC,
                         const ActivityInfo &AI, Fail F) {
  MPIRoutine R = MC.Routine;
  if (isNonBlocking(R) || isWait(R)) {
    // A request and its wait must both be in the function: the reverse of
    // the wait starts the adjoint communication that the reverse of
    // MPI_Isend/MPI_Irecv finishes.
    bool Partner = false;
    for (const Instruction &I : instructions(*CB.getFunction()))
      if (auto *Other = dyn_cast<CallBase>(&I))
        if (auto OC = findMPICall(*Other))
          Partner |= isNonBlocking(R) ? isWait(OC->Routine)
                                      : isNonBlocking(OC->Routine);
    if (!Partner) {
      F(isNonBlocking(R)
            ? "the request of this '" + MC.Name.str() +
                  "' is not completed (MPI_Wait, MPI_Waitall) in the "
                  "differentiated function; Tapestry differentiates "
                  "non-blocking communication only when the request and its "
                  "wait are both in the function (or functions it calls): "
                  "move the wait into the function"
            : "this '" + MC.Name.str() +
                  "' completes requests that no MPI_Isend or MPI_Irecv of "
                  "the differentiated function started; Tapestry "
                  "differentiates non-blocking communication only when the "
                  "request and its wait are both in the function (or "
                  "functions it calls): move the MPI_Isend/MPI_Irecv into "
                  "the function");
      return false;
    }
    if (!AI.hasShadow(operand(CB, MC, A::Request))) {
      F("the request of this '" + MC.Name.str() +
        "' is in memory Tapestry keeps no derivative copy of (a global, or "
        "an argument passed without a shadow); keep requests in local "
        "variables or arrays of the differentiated function");
      return false;
    }
  }
  if (R == MPIRoutine::Irecv)
    for (MPIArg Arg : {A::Source, A::Tag})
      if (auto *C = dyn_cast<ConstantInt>(operand(CB, MC, Arg));
          C && C->isMinusOne()) {
        F("this 'MPI_Irecv' receives from MPI_ANY_SOURCE or with "
          "MPI_ANY_TAG; Tapestry needs the source and tag of a non-blocking "
          "receive when it is posted: give them, or use MPI_Recv (whose "
          "matched source and tag it reads from the status)");
        return false;
      }
  if (MC.has(A::Op) &&
      classifyMPIType(operand(CB, MC, A::Type)) != MPITypeKind::Inactive) {
    StringRef Op = mpiOpName(operand(CB, MC, A::Op));
    if (!Op.empty() && Op != "sum" && Op != "prod" && Op != "max" &&
        Op != "min") {
      F("'" + MC.Name.str() + "' reduces with MPI_" + Op.upper() +
        "; Tapestry differentiates reductions of MPI_DOUBLE and MPI_FLOAT "
        "data with MPI_SUM, MPI_PROD, MPI_MAX and MPI_MIN only");
      return false;
    }
  }
  return true;
}

/// Calls runtime function __tapestry_mpi_<Name>, declared from the
/// arguments' types (the handles have the types the user's call gives
/// them).
static CallInst *callRuntime(IRBuilderBase &B, Module &M, StringRef Name,
                             Type *Ret, ArrayRef<Value *> Args) {
  SmallVector<Type *, 12> Tys;
  for (Value *V : Args)
    Tys.push_back(V->getType());
  FunctionCallee F = M.getOrInsertFunction(("__tapestry_mpi_" + Name).str(),
                                           FunctionType::get(Ret, Tys, false));
  return B.CreateCall(F, Args);
}

/// A primal or shadow operand of an MPI call, as the mode emitting a
/// runtime call has it at that point.
using MPIOperand = function_ref<Value *(MPIArg)>;

/// The name of the runtime functions of a blocking routine
/// (__tapestry_mpi_<name>_fwd and _rev), or "" for the non-blocking ones
/// and waits, whose forward and reverse calls differ.
static StringRef blockingRuntimeName(MPIRoutine R) {
  switch (R) {
  case MPIRoutine::Send:
    return "send";
  case MPIRoutine::Recv:
    return "recv";
  case MPIRoutine::Sendrecv:
    return "sendrecv";
  case MPIRoutine::Bcast:
    return "bcast";
  case MPIRoutine::Reduce:
  case MPIRoutine::Allreduce:
    return "reduce";
  case MPIRoutine::Gather:
    return "gather";
  case MPIRoutine::Scatter:
    return "scatter";
  case MPIRoutine::Allgather:
    return "allgather";
  case MPIRoutine::Isend:
  case MPIRoutine::Irecv:
  case MPIRoutine::Wait:
  case MPIRoutine::Waitall:
    return "";
  }
  llvm_unreachable("unknown MPI routine");
}

/// The arguments that __tapestry_mpi_<name>_fwd and _rev of blocking
/// routine call \p MC both take, in the runtime's order (runtime/
/// tapestry_mpi.c): \p P gives a primal operand, \p S a shadow (of the
/// lane being emitted), \p Matched the source (A::Source) or tag (A::Tag)
/// a receive matched, each called in argument order. A
/// reduction's forward takes the primal buffers before these, its reverse
/// the record its augmented forward kept.
static SmallVector<Value *, 12> blockingRuntimeArgs(IRBuilderBase &B,
                                                    const MPICall &MC,
                                                    MPIOperand P, MPIOperand S,
                                                    MPIOperand Matched) {
  switch (MC.Routine) {
  case MPIRoutine::Send:
    return {S(A::Buf),  P(A::Count), P(A::Type),
            P(A::Dest), P(A::Tag),   P(A::Comm)};
  case MPIRoutine::Recv:
    return {S(A::Buf),          P(A::Count),     P(A::Type),
            Matched(A::Source), Matched(A::Tag), P(A::Comm)};
  case MPIRoutine::Sendrecv:
    return {S(A::SendBuf),   P(A::SendCount), P(A::SendType),
            P(A::Dest),      P(A::SendTag),   S(A::RecvBuf),
            P(A::RecvCount), P(A::RecvType),  Matched(A::Source),
            Matched(A::Tag), P(A::Comm)};
  case MPIRoutine::Bcast:
    return {S(A::Buf), P(A::Count), P(A::Type), P(A::Root), P(A::Comm)};
  case MPIRoutine::Reduce:
  case MPIRoutine::Allreduce:
    return {S(A::SendBuf), S(A::RecvBuf),
            P(A::Count),   P(A::Type),
            P(A::Op),      MC.has(A::Root) ? P(A::Root) : B.getInt32(-1),
            P(A::Comm)};
  case MPIRoutine::Gather:
    return {P(A::SendBuf),  S(A::SendBuf), P(A::SendCount),
            P(A::SendType), S(A::RecvBuf), P(A::RecvCount),
            P(A::RecvType), P(A::Root),    P(A::Comm)};
  case MPIRoutine::Scatter:
    return {S(A::SendBuf),  P(A::SendCount), P(A::SendType),
            P(A::RecvBuf),  S(A::RecvBuf),   P(A::RecvCount),
            P(A::RecvType), P(A::Root),      P(A::Comm)};
  case MPIRoutine::Allgather:
    return {P(A::SendBuf), S(A::SendBuf),   P(A::SendCount), P(A::SendType),
            S(A::RecvBuf), P(A::RecvCount), P(A::RecvType),  P(A::Comm)};
  case MPIRoutine::Isend:
  case MPIRoutine::Irecv:
  case MPIRoutine::Wait:
  case MPIRoutine::Waitall:
    break;
  }
  llvm_unreachable("not a blocking MPI routine");
}

/// Calls __tapestry_mpi_<name>_<Suffix> of blocking routine call \p MC,
/// its arguments \p Prefix and then those both modes take.
static void callBlockingRuntime(IRBuilderBase &B, Module &M, const MPICall &MC,
                                StringRef Suffix, ArrayRef<Value *> Prefix,
                                MPIOperand P, MPIOperand S,
                                MPIOperand Matched) {
  SmallVector<Value *, 12> Args(Prefix);
  append_range(Args, blockingRuntimeArgs(B, MC, P, S, Matched));
  callRuntime(B, M, (blockingRuntimeName(MC.Routine) + "_" + Suffix).str(),
              B.getVoidTy(), Args);
}

/// Makes the receive \p GI (in the derivative function \p G) write its
/// status somewhere even if the user passed MPI_STATUS_IGNORE, and returns
/// the source and tag it matched (read after it).
static std::pair<Value *, Value *>
captureStatus(CallBase &GI, unsigned StatusIdx, Function &G) {
  IRBuilder<> EB(&G.getEntryBlock(), G.getEntryBlock().getFirstInsertionPt());
  // Open MPI's MPI_Status is 24 bytes; room for any MPI's.
  AllocaInst *Own = EB.CreateAlloca(ArrayType::get(EB.getInt8Ty(), 64), nullptr,
                                    "mpi.status");
  Own->setAlignment(Align(8));
  IRBuilder<> B(&GI);
  Value *User = GI.getArgOperand(StatusIdx);
  Value *St = isa<ConstantPointerNull>(User)
                  ? Own
                  : B.CreateSelect(B.CreateIsNull(User), Own, User);
  GI.setArgOperand(StatusIdx, St);
  IRBuilder<> After(GI.getNextNode());
  Module &M = *G.getParent();
  Value *Source =
      callRuntime(After, M, "status_source", After.getInt32Ty(), {St});
  Value *Tag = callRuntime(After, M, "status_tag", After.getInt32Ty(), {St});
  return {Source, Tag};
}

//===----------------------------------------------------------------------===//
// Forward mode
//===----------------------------------------------------------------------===//

void ForwardModeSynthesizer::visitMPICall(CallBase &CB, const MPICall &MC) {
  if (!checkMPICall(CB, MC, AI,
                    [&](const std::string &Msg) { fail(&CB, Msg); }) ||
      !isActiveMPICall(CB, MC))
    return;
  auto *GI = cast<CallBase>(primal(&CB));
  Module &M = module();
  auto P = [&](MPIArg Arg) { return primal(operand(CB, MC, Arg)); };
  auto Shadow = [&](IRBuilderBase &B, MPIArg Arg, unsigned K) -> Value * {
    Value *Op = operand(CB, MC, Arg);
    Value *S = AI.hasShadow(Op) ? shadowOf(Op, &CB) : nullptr;
    return S ? lane(B, S, K) : ConstantPointerNull::get(B.getPtrTy());
  };
  Value *Source = nullptr, *Tag = nullptr;
  if (MC.Routine == MPIRoutine::Recv || MC.Routine == MPIRoutine::Sendrecv)
    std::tie(Source, Tag) = captureStatus(*GI, MC.index(A::Status), *G);
  // After the primal call (and the reads of its status), or before it.
  Instruction *At = GI->getNextNode();
  if (Tag)
    At = cast<Instruction>(Tag)->getNextNode();
  bool Before =
      MC.Routine == MPIRoutine::Reduce || MC.Routine == MPIRoutine::Allreduce;
  IRBuilder<> B(Before ? GI : At);
  auto Matched = [&](MPIArg Arg) { return Arg == A::Source ? Source : Tag; };
  for (unsigned K = 0; K < W; ++K) {
    auto S = [&](MPIArg Arg) { return Shadow(B, Arg, K); };
    switch (MC.Routine) {
    case MPIRoutine::Isend:
    case MPIRoutine::Irecv:
      callRuntime(B, M,
                  MC.Routine == MPIRoutine::Isend ? "isend_fwd" : "irecv_fwd",
                  B.getVoidTy(),
                  {S(A::Buf), P(A::Count), P(A::Type), P(A::Peer), P(A::Tag),
                   P(A::Comm), S(A::Request)});
      break;
    case MPIRoutine::Wait:
      callRuntime(B, M, "wait_fwd", B.getVoidTy(), {S(A::Request)});
      break;
    case MPIRoutine::Waitall:
      callRuntime(B, M, "waitall_fwd", B.getVoidTy(),
                  {P(A::NumRequests), S(A::Request)});
      break;
    case MPIRoutine::Reduce:
    case MPIRoutine::Allreduce:
      // The tangent of MPI_PROD, MPI_MAX and MPI_MIN needs the inputs.
      callBlockingRuntime(B, M, MC, "fwd", {P(A::SendBuf), P(A::RecvBuf)}, P, S,
                          Matched);
      break;
    default:
      callBlockingRuntime(B, M, MC, "fwd", {}, P, S, Matched);
      break;
    }
  }
}

//===----------------------------------------------------------------------===//
// Reverse mode
//===----------------------------------------------------------------------===//

void ReverseModeSynthesizer::augmentMPICalls() {
  for (Instruction &PI : instructions(P))
    if (auto *CB = dyn_cast<CallBase>(&PI))
      if (auto MC = findMPICall(*CB);
          MC && !Rules.gradient(CB->getCalledFunction()) &&
          !isInactiveCall(*CB, &Rules))
        augmentMPICall(*CB, *MC);
}

void ReverseModeSynthesizer::augmentMPICall(CallBase &CB, const MPICall &MC) {
  if (!checkMPICall(CB, MC, AI,
                    [&](const std::string &Msg) { fail(&CB, Msg); }) ||
      !isActiveMPICall(CB, MC))
    return;
  auto *GI = cast<CallBase>(primal(&CB));
  Module &M = module();
  MPIForward &F = MPIForwards[&CB];
  auto P = [&](MPIArg Arg) { return primal(operand(CB, MC, Arg)); };
  auto Shadow = [&](IRBuilderBase &B, MPIArg Arg, unsigned K) -> Value * {
    Value *Op = operand(CB, MC, Arg);
    Value *S = AI.hasShadow(Op) ? shadowOf(Op, &CB) : nullptr;
    return S ? lane(B, S, K) : ConstantPointerNull::get(B.getPtrTy());
  };
  switch (MC.Routine) {
  case MPIRoutine::Recv:
  case MPIRoutine::Sendrecv:
    std::tie(F.Source, F.Tag) = captureStatus(*GI, MC.index(A::Status), *G);
    break;
  case MPIRoutine::Isend:
  case MPIRoutine::Irecv: {
    IRBuilder<> B(GI->getNextNode());
    for (unsigned K = 0; K < W; ++K)
      F.Records.push_back(callRuntime(
          B, M, MC.Routine == MPIRoutine::Isend ? "isend_aug" : "irecv_aug",
          B.getPtrTy(),
          {Shadow(B, A::Buf, K), P(A::Count), P(A::Type), P(A::Peer), P(A::Tag),
           P(A::Comm), Shadow(B, A::Request, K)}));
    break;
  }
  case MPIRoutine::Wait:
  case MPIRoutine::Waitall: {
    // Before the wait sets the request to MPI_REQUEST_NULL.
    IRBuilder<> B(GI);
    for (unsigned K = 0; K < W; ++K)
      F.Records.push_back(
          MC.Routine == MPIRoutine::Wait
              ? callRuntime(B, M, "wait_aug", B.getPtrTy(),
                            {P(A::Request), Shadow(B, A::Request, K)})
              : callRuntime(B, M, "waitall_aug", B.getPtrTy(),
                            {P(A::NumRequests), P(A::Request),
                             Shadow(B, A::Request, K)}));
    break;
  }
  case MPIRoutine::Reduce:
  case MPIRoutine::Allreduce: {
    // Before an in-place call overwrites its input.
    IRBuilder<> B(GI);
    F.Records.push_back(callRuntime(
        B, M, "reduce_aug", B.getPtrTy(),
        {P(A::SendBuf), P(A::RecvBuf), P(A::Count), P(A::Type), P(A::Op),
         MC.has(A::Root) ? P(A::Root) : B.getInt32(-1), P(A::Comm)}));
    break;
  }
  default:
    break;
  }
  if (!F.Records.empty() && R.Split)
    Boundary.NotReplayable.push_back(
        "its reverse sweep frees what it keeps of the call to '" +
        MC.Name.str() + "'");
}

void ReverseModeSynthesizer::reverseMPICall(CallBase &CB, const MPICall &MC,
                                            IRBuilderBase &B) {
  auto It = MPIForwards.find(&CB);
  if (It == MPIForwards.end())
    return; // rejected, or inactive
  MPIForward &F = It->second;
  Module &M = module();
  BasicBlock *PB = CB.getParent();
  auto L = [&](Value *GV) { return lookup(GV, PB, B); };
  auto P = [&](MPIArg Arg) { return L(primal(operand(CB, MC, Arg))); };
  auto Shadow = [&](MPIArg Arg, unsigned K) -> Value * {
    Value *Op = operand(CB, MC, Arg);
    Value *S = AI.hasShadow(Op) ? shadowOf(Op, &CB) : nullptr;
    return S ? lane(B, L(S), K) : ConstantPointerNull::get(B.getPtrTy());
  };
  auto Matched = [&](MPIArg Arg) {
    return L(Arg == A::Source ? F.Source : F.Tag);
  };
  for (unsigned K = 0; K < W; ++K) {
    auto S = [&](MPIArg Arg) { return Shadow(Arg, K); };
    switch (MC.Routine) {
    case MPIRoutine::Isend:
    case MPIRoutine::Irecv:
      callRuntime(B, M, "request_rev", B.getVoidTy(), {L(F.Records[K])});
      break;
    case MPIRoutine::Wait:
      callRuntime(B, M, "wait_rev", B.getVoidTy(), {L(F.Records[K])});
      break;
    case MPIRoutine::Waitall:
      callRuntime(B, M, "waitall_rev", B.getVoidTy(),
                  {L(F.Records[K]), P(A::NumRequests)});
      break;
    case MPIRoutine::Reduce:
    case MPIRoutine::Allreduce:
      // The partial derivatives the augmented forward kept.
      callBlockingRuntime(B, M, MC, "rev", {L(F.Records[0]), P(A::SendBuf)}, P,
                          S, Matched);
      break;
    default:
      callBlockingRuntime(B, M, MC, "rev", {}, P, S, Matched);
      break;
    }
  }
  if (MC.Routine == MPIRoutine::Reduce || MC.Routine == MPIRoutine::Allreduce)
    callRuntime(B, M, "free", B.getVoidTy(), {L(F.Records[0])});
}

} // namespace tapestry
