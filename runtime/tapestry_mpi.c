/*===- tapestry_mpi.c - Derivatives of MPI calls, on the real MPI -----------===
 *
 * The plugin differentiates MPI calls by calling these functions from the
 * derivative code (plugin/Synthesis/MPIRules.cpp); they call the program's
 * own MPI library (Open MPI), never a replacement. Each takes one lane's
 * shadow buffers (null where a buffer carries no derivative: the
 * communication still happens, with zeros, so that every rank's sequence of
 * messages and collectives matches its partners') and the user's
 * communicator, datatype, ranks and tags.
 *
 * Reverse mode: the adjoint of a send is a receive of the adjoint, added to
 * the send buffer's shadow; of a receive, a send of the receive buffer's
 * shadow, which is then zero; of a broadcast a sum-reduction to the root; of
 * a sum-(all)reduce a broadcast (allreduce) of the adjoints; of a product
 * the product of the other ranks' elements; of max and min the rank that
 * won each element (MPI_MAXLOC/MPI_MINLOC, lowest rank on ties); of gather
 * a scatter, of scatter a gather, of allgather a reduce-scatter.
 * Non-blocking calls: the forward sweep keeps a record per request in the
 * request's shadow; the reverse of the wait starts the adjoint's
 * non-blocking communication, the reverse of MPI_Isend/MPI_Irecv finishes it.
 *
 * Forward mode: the tangents travel beside the values, as a second message
 * with the same envelope (or a second collective), after the primal one.
 *
 * Only MPI_DOUBLE and MPI_FLOAT carry derivatives; calls on other datatypes
 * do nothing here.
 *
 *===----------------------------------------------------------------------===*/
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fatal(const char *Msg) {
  fflush(NULL);
  fprintf(stderr, "tapestry: %s\n", Msg);
  MPI_Abort(MPI_COMM_WORLD, 1);
  abort();
}

/* 0 for an inactive datatype, else the element size (8 or 4). */
static int activeSize(MPI_Datatype T) {
  if (T == MPI_DOUBLE)
    return 8;
  if (T == MPI_FLOAT)
    return 4;
  if (T == MPI_INT || T == MPI_UNSIGNED || T == MPI_LONG ||
      T == MPI_UNSIGNED_LONG || T == MPI_LONG_LONG || T == MPI_CHAR ||
      T == MPI_UNSIGNED_CHAR || T == MPI_SIGNED_CHAR || T == MPI_SHORT ||
      T == MPI_UNSIGNED_SHORT || T == MPI_BYTE || T == MPI_INT8_T ||
      T == MPI_INT16_T || T == MPI_INT32_T || T == MPI_INT64_T ||
      T == MPI_UINT8_T || T == MPI_UINT16_T || T == MPI_UINT32_T ||
      T == MPI_UINT64_T || T == MPI_C_BOOL || T == MPI_UNSIGNED_LONG_LONG ||
      T == MPI_AINT || T == MPI_OFFSET || T == MPI_COUNT)
    return 0;
  fatal("an MPI call in a differentiated function uses a datatype other "
        "than MPI_DOUBLE, MPI_FLOAT or an integer type (a derived or "
        "complex type); Tapestry differentiates MPI_DOUBLE and MPI_FLOAT "
        "buffers only");
  return 0;
}

static void *zeros(int Count, int Size) {
  void *P = calloc(Count > 0 ? (size_t)Count : 1, (size_t)Size);
  if (!P)
    fatal("out of memory for an MPI derivative buffer");
  return P;
}

/* Dst[i] += Src[i] * (Scale ? Scale[i] : 1). */
static void addTo(void *Dst, const void *Src, const double *Scale, int Count,
                  int Size) {
  if (!Dst)
    return;
  for (int I = 0; I < Count; ++I) {
    double S = Scale ? Scale[I] : 1.0;
    if (Size == 8)
      ((double *)Dst)[I] += ((const double *)Src)[I] * S;
    else
      ((float *)Dst)[I] += (float)(((const float *)Src)[I] * S);
  }
}

static void zeroOut(void *P, int Count, int Size) {
  if (P && Count > 0)
    memset(P, 0, (size_t)Count * (size_t)Size);
}

static int commRank(MPI_Comm C) {
  int R;
  MPI_Comm_rank(C, &R);
  return R;
}

static int commSize(MPI_Comm C) {
  int N;
  MPI_Comm_size(C, &N);
  return N;
}

/* A status the derivative code passes to MPI_Recv and MPI_Sendrecv where
 * the user passed MPI_STATUS_IGNORE, and its fields. */
int __tapestry_mpi_status_source(const MPI_Status *S) { return S->MPI_SOURCE; }
int __tapestry_mpi_status_tag(const MPI_Status *S) { return S->MPI_TAG; }
unsigned long long __tapestry_mpi_status_size(void) {
  return sizeof(MPI_Status);
}

/*===--- Point to point, blocking
 * ------------------------------------------===*/

void __tapestry_mpi_send_rev(void *DBuf, int Count, MPI_Datatype T, int Dest,
                             int Tag, MPI_Comm C) {
  int Size = activeSize(T);
  if (!Size || Dest == MPI_PROC_NULL)
    return;
  void *Tmp = zeros(Count, Size);
  MPI_Recv(Tmp, Count, T, Dest, Tag, C, MPI_STATUS_IGNORE);
  addTo(DBuf, Tmp, 0, Count, Size);
  free(Tmp);
}

/* Source and Tag: those the primal receive matched (its status). */
void __tapestry_mpi_recv_rev(void *DBuf, int Count, MPI_Datatype T, int Source,
                             int Tag, MPI_Comm C) {
  int Size = activeSize(T);
  if (!Size || Source == MPI_PROC_NULL)
    return;
  void *Z = DBuf ? 0 : zeros(Count, Size);
  MPI_Send(DBuf ? DBuf : Z, Count, T, Source, Tag, C);
  zeroOut(DBuf, Count, Size);
  free(Z);
}

void __tapestry_mpi_send_fwd(const void *DBuf, int Count, MPI_Datatype T,
                             int Dest, int Tag, MPI_Comm C) {
  int Size = activeSize(T);
  if (!Size)
    return;
  void *Z = DBuf ? 0 : zeros(Count, Size);
  MPI_Send(DBuf ? DBuf : Z, Count, T, Dest, Tag, C);
  free(Z);
}

void __tapestry_mpi_recv_fwd(void *DBuf, int Count, MPI_Datatype T, int Source,
                             int Tag, MPI_Comm C) {
  int Size = activeSize(T);
  if (!Size)
    return;
  void *Z = DBuf ? 0 : zeros(Count, Size);
  MPI_Recv(DBuf ? DBuf : Z, Count, T, Source, Tag, C, MPI_STATUS_IGNORE);
  free(Z);
}

static void checkSameActivity(int SSize, int RSize) {
  if ((SSize == 0) != (RSize == 0))
    fatal("MPI_Sendrecv sends and receives with datatypes of which one "
          "carries derivatives (MPI_DOUBLE, MPI_FLOAT) and the other not; "
          "Tapestry differentiates it only when both do or neither does");
}

void __tapestry_mpi_sendrecv_rev(void *DSend, int SCount, MPI_Datatype ST,
                                 int Dest, int STag, void *DRecv, int RCount,
                                 MPI_Datatype RT, int Source, int RTag,
                                 MPI_Comm C) {
  int SSize = activeSize(ST), RSize = activeSize(RT);
  checkSameActivity(SSize, RSize);
  if (!SSize)
    return;
  void *Tmp = zeros(SCount, SSize);
  void *Z = DRecv ? 0 : zeros(RCount, RSize);
  /* The adjoint goes back the way the value came. (A receive from
   * MPI_PROC_NULL reports MPI_ANY_TAG, which is no tag to send with.) */
  if (Source == MPI_PROC_NULL)
    RTag = 0;
  MPI_Sendrecv(DRecv ? DRecv : Z, RCount, RT, Source, RTag, Tmp, SCount, ST,
               Dest, STag, C, MPI_STATUS_IGNORE);
  if (Source != MPI_PROC_NULL)
    zeroOut(DRecv, RCount, RSize);
  if (Dest != MPI_PROC_NULL)
    addTo(DSend, Tmp, 0, SCount, SSize);
  free(Tmp);
  free(Z);
}

void __tapestry_mpi_sendrecv_fwd(const void *DSend, int SCount, MPI_Datatype ST,
                                 int Dest, int STag, void *DRecv, int RCount,
                                 MPI_Datatype RT, int Source, int RTag,
                                 MPI_Comm C) {
  int SSize = activeSize(ST), RSize = activeSize(RT);
  checkSameActivity(SSize, RSize);
  if (!SSize)
    return;
  void *ZS = DSend ? 0 : zeros(SCount, SSize);
  void *ZR = DRecv ? 0 : zeros(RCount, RSize);
  MPI_Sendrecv(DSend ? DSend : ZS, SCount, ST, Dest, STag, DRecv ? DRecv : ZR,
               RCount, RT, Source, RTag, C, MPI_STATUS_IGNORE);
  free(ZS);
  free(ZR);
}

/*===--- Point to point, non-blocking
 * --------------------------------------===*/

/* Reverse mode: one record per request and lane, kept in the request's
 * shadow from MPI_Isend/MPI_Irecv to the wait. */
typedef struct {
  unsigned long long Seq; /* order of the primal posts */
  int IsSend;
  int Started;
  void *DBuf;
  int Count;
  int Size;
  MPI_Datatype T;
  int Peer;
  int Tag;
  MPI_Comm C;
  void *Tmp;
  MPI_Request AdjReq;
} Record;

static const char CrossingMsg[] =
    "a request of MPI_Isend or MPI_Irecv in a differentiated function is "
    "not completed (MPI_Wait, MPI_Waitall) in that function, or a wait in "
    "it completes a request started outside it; Tapestry differentiates "
    "non-blocking communication only when the request and its wait are in "
    "the differentiated function (or functions it calls): move the wait "
    "into the function, or the MPI_Isend/MPI_Irecv next to it";

static void *startRecord(int IsSend, void *DBuf, int Count, MPI_Datatype T,
                         int Peer, int Tag, MPI_Comm C, void **DReq) {
  int Size = activeSize(T);
  if (!Size)
    return 0;
  if (!IsSend && (Peer == MPI_ANY_SOURCE || Tag == MPI_ANY_TAG))
    fatal("MPI_Irecv with MPI_ANY_SOURCE or MPI_ANY_TAG in a differentiated "
          "function: Tapestry needs the source and tag of a non-blocking "
          "receive when it is posted; give them, or use MPI_Recv");
  if (!DReq)
    fatal("the request of an MPI_Isend or MPI_Irecv in a differentiated "
          "function is in memory without a shadow; keep requests in local "
          "variables or arrays of the function");
  Record *R = calloc(1, sizeof(Record));
  if (!R)
    fatal("out of memory for an MPI request record");
  static unsigned long long Posted;
  R->Seq = ++Posted;
  R->IsSend = IsSend;
  R->DBuf = DBuf;
  R->Count = Count;
  R->Size = Size;
  R->T = T;
  R->Peer = Peer;
  R->Tag = Tag;
  R->C = C;
  R->AdjReq = MPI_REQUEST_NULL;
  *DReq = R;
  return R;
}

void *__tapestry_mpi_isend_aug(void *DBuf, int Count, MPI_Datatype T, int Dest,
                               int Tag, MPI_Comm C, void **DReq) {
  return startRecord(1, DBuf, Count, T, Dest, Tag, C, DReq);
}

void *__tapestry_mpi_irecv_aug(void *DBuf, int Count, MPI_Datatype T,
                               int Source, int Tag, MPI_Comm C, void **DReq) {
  return startRecord(0, DBuf, Count, T, Source, Tag, C, DReq);
}

/* Before the primal wait: the record of the request it completes (none for
 * MPI_REQUEST_NULL or an inactive request), taken out of its shadow. */
static void *takeRecord(MPI_Request *Req, void **DReq) {
  if (*Req == MPI_REQUEST_NULL)
    return 0;
  void *R = DReq ? *DReq : 0;
  if (DReq)
    *DReq = 0;
  return R;
}

void *__tapestry_mpi_wait_aug(MPI_Request *Req, void **DReq) {
  return takeRecord(Req, DReq);
}

void *__tapestry_mpi_waitall_aug(int N, MPI_Request *Reqs, void **DReqs) {
  void **Recs = calloc(N > 0 ? (size_t)N : 1, sizeof(void *));
  if (!Recs)
    fatal("out of memory for MPI_Waitall's records");
  for (int I = 0; I < N; ++I)
    Recs[I] = takeRecord(&Reqs[I], DReqs ? &DReqs[I] : 0);
  return Recs;
}

/* Reverse of the wait: starts the adjoint communication. */
void __tapestry_mpi_wait_rev(void *Rec) {
  Record *R = Rec;
  if (!R)
    return;
  R->Started = 1;
  if (R->IsSend) {
    R->Tmp = zeros(R->Count, R->Size);
    MPI_Irecv(R->Tmp, R->Count, R->T, R->Peer, R->Tag, R->C, &R->AdjReq);
  } else {
    if (!R->DBuf)
      R->Tmp = zeros(R->Count, R->Size);
    MPI_Isend(R->DBuf ? R->DBuf : R->Tmp, R->Count, R->T, R->Peer, R->Tag, R->C,
              &R->AdjReq);
  }
}

/* Later posts first: the partners' reverse sweeps post theirs in the same
 * order, so the adjoint messages match as the primal ones did. */
static int laterFirst(const void *A, const void *B) {
  const Record *RA = *(Record *const *)A, *RB = *(Record *const *)B;
  unsigned long long SA = RA ? RA->Seq : 0, SB = RB ? RB->Seq : 0;
  return SA < SB ? 1 : SA > SB ? -1 : 0;
}

void __tapestry_mpi_waitall_rev(void *Recs, int N) {
  if (N > 1)
    qsort(Recs, (size_t)N, sizeof(void *), laterFirst);
  for (int I = 0; I < N; ++I)
    __tapestry_mpi_wait_rev(((void **)Recs)[I]);
  free(Recs);
}

/* Reverse of MPI_Isend/MPI_Irecv: finishes the adjoint communication. */
void __tapestry_mpi_request_rev(void *Rec) {
  Record *R = Rec;
  if (!R)
    return;
  if (!R->Started)
    fatal(CrossingMsg);
  MPI_Wait(&R->AdjReq, MPI_STATUS_IGNORE);
  if (R->Peer != MPI_PROC_NULL) {
    if (R->IsSend)
      addTo(R->DBuf, R->Tmp, 0, R->Count, R->Size);
    else
      zeroOut(R->DBuf, R->Count, R->Size);
  }
  free(R->Tmp);
  free(R);
}

/* Forward mode: the tangent's request is kept in the request's shadow. */
static void *ScratchSend, *ScratchRecv;
static size_t ScratchSendBytes, ScratchRecvBytes;

/* A buffer of at least Bytes: zeros to send (never written, so a new one
 * may be needed while an old one is still in flight: the old one is then
 * kept), or a place for a tangent nobody reads. */
static void *scratch(void **P, size_t *Have, size_t Bytes) {
  if (*Have < Bytes) {
    *P = calloc(Bytes, 1);
    if (!*P)
      fatal("out of memory for an MPI tangent buffer");
    *Have = Bytes;
  }
  return *P;
}

void __tapestry_mpi_isend_fwd(const void *DBuf, int Count, MPI_Datatype T,
                              int Dest, int Tag, MPI_Comm C,
                              MPI_Request *DReq) {
  int Size = activeSize(T);
  if (!Size)
    return;
  if (!DReq)
    fatal("the request of an MPI_Isend in a differentiated function is in "
          "memory without a shadow; keep requests in local variables or "
          "arrays of the function");
  if (!DBuf)
    DBuf = scratch(&ScratchSend, &ScratchSendBytes, (size_t)Count * Size);
  MPI_Isend(DBuf, Count, T, Dest, Tag, C, DReq);
}

void __tapestry_mpi_irecv_fwd(void *DBuf, int Count, MPI_Datatype T, int Source,
                              int Tag, MPI_Comm C, MPI_Request *DReq) {
  int Size = activeSize(T);
  if (!Size)
    return;
  if (Source == MPI_ANY_SOURCE || Tag == MPI_ANY_TAG)
    fatal("MPI_Irecv with MPI_ANY_SOURCE or MPI_ANY_TAG in a differentiated "
          "function: Tapestry needs the source and tag of a non-blocking "
          "receive when it is posted; give them, or use MPI_Recv");
  if (!DReq)
    fatal("the request of an MPI_Irecv in a differentiated function is in "
          "memory without a shadow; keep requests in local variables or "
          "arrays of the function");
  if (!DBuf)
    DBuf = scratch(&ScratchRecv, &ScratchRecvBytes, (size_t)Count * Size);
  MPI_Irecv(DBuf, Count, T, Source, Tag, C, DReq);
}

/* After the primal wait: a shadow never set (null) has no tangent request. */
void __tapestry_mpi_wait_fwd(MPI_Request *DReq) {
  if (DReq && *DReq)
    MPI_Wait(DReq, MPI_STATUS_IGNORE);
}

void __tapestry_mpi_waitall_fwd(int N, MPI_Request *DReqs) {
  for (int I = 0; DReqs && I < N; ++I)
    __tapestry_mpi_wait_fwd(&DReqs[I]);
}

/*===--- Collectives
 * -------------------------------------------------------===*/

void __tapestry_mpi_bcast_rev(void *DBuf, int Count, MPI_Datatype T, int Root,
                              MPI_Comm C) {
  int Size = activeSize(T);
  if (!Size)
    return;
  void *Tmp = zeros(Count, Size);
  void *Z = DBuf ? 0 : zeros(Count, Size);
  MPI_Reduce(DBuf ? DBuf : Z, Tmp, Count, T, MPI_SUM, Root, C);
  if (DBuf) {
    if (commRank(C) == Root)
      memcpy(DBuf, Tmp, (size_t)Count * Size);
    else
      zeroOut(DBuf, Count, Size);
  }
  free(Tmp);
  free(Z);
}

void __tapestry_mpi_bcast_fwd(void *DBuf, int Count, MPI_Datatype T, int Root,
                              MPI_Comm C) {
  int Size = activeSize(T);
  if (!Size)
    return;
  void *Z = DBuf ? 0 : zeros(Count, Size);
  MPI_Bcast(DBuf ? DBuf : Z, Count, T, Root, C);
  free(Z);
}

enum { OpSum, OpProd, OpMax, OpMin };

static int opKind(MPI_Op Op) {
  if (Op == MPI_SUM)
    return OpSum;
  if (Op == MPI_PROD)
    return OpProd;
  if (Op == MPI_MAX)
    return OpMax;
  if (Op == MPI_MIN)
    return OpMin;
  fatal("MPI_Reduce or MPI_Allreduce of MPI_DOUBLE or MPI_FLOAT data in a "
        "differentiated function with an operation other than MPI_SUM, "
        "MPI_PROD, MPI_MAX and MPI_MIN; Tapestry differentiates those four");
  return OpSum;
}

static double loadAt(const void *P, int I, int Size) {
  return Size == 8 ? ((const double *)P)[I] : ((const float *)P)[I];
}

/* Per element of the reduction's input X: for MPI_PROD the product of the
 * other ranks' elements, for MPI_MAX/MPI_MIN 1 on the rank whose element
 * won (the lowest rank among equal ones) and 0 elsewhere: the reduction's
 * partial derivative with respect to this rank's element. */
static double *partials(const void *X, int Count, MPI_Datatype T, int Kind,
                        MPI_Comm C) {
  int Size = activeSize(T);
  double *P = calloc(Count > 0 ? (size_t)Count : 1, sizeof(double));
  if (!P)
    fatal("out of memory for an MPI reduction's partials");
  if (Kind == OpProd) {
    /* Without division by zero: the product of the non-zero elements and
     * the count of zeros. */
    double *NZ = malloc((Count > 0 ? (size_t)Count : 1) * sizeof(double));
    int *Zs = malloc((Count > 0 ? (size_t)Count : 1) * sizeof(int));
    if (!NZ || !Zs)
      fatal("out of memory for an MPI reduction's partials");
    for (int I = 0; I < Count; ++I) {
      double V = loadAt(X, I, Size);
      NZ[I] = V == 0 ? 1.0 : V;
      Zs[I] = V == 0;
    }
    MPI_Allreduce(MPI_IN_PLACE, NZ, Count, MPI_DOUBLE, MPI_PROD, C);
    MPI_Allreduce(MPI_IN_PLACE, Zs, Count, MPI_INT, MPI_SUM, C);
    for (int I = 0; I < Count; ++I) {
      double V = loadAt(X, I, Size);
      if (V != 0)
        P[I] = Zs[I] ? 0.0 : NZ[I] / V;
      else
        P[I] = Zs[I] == 1 ? NZ[I] : 0.0;
    }
    free(NZ);
    free(Zs);
    return P;
  }
  struct {
    double V;
    int R;
  } *Pairs = malloc((Count > 0 ? (size_t)Count : 1) * sizeof(*Pairs));
  if (!Pairs)
    fatal("out of memory for an MPI reduction's partials");
  int Me = commRank(C);
  for (int I = 0; I < Count; ++I) {
    Pairs[I].V = loadAt(X, I, Size);
    Pairs[I].R = Me;
  }
  MPI_Allreduce(MPI_IN_PLACE, Pairs, Count, MPI_DOUBLE_INT,
                Kind == OpMax ? MPI_MAXLOC : MPI_MINLOC, C);
  for (int I = 0; I < Count; ++I)
    P[I] = Pairs[I].R == Me;
  free(Pairs);
  return P;
}

/* Root -1: MPI_Allreduce. Called before the primal reduction (whose input
 * an in-place call overwrites): what the reverse needs, or null. The
 * partials are computed on every rank, the root's included. */
void *__tapestry_mpi_reduce_aug(const void *Send, const void *Recv, int Count,
                                MPI_Datatype T, MPI_Op Op, int Root,
                                MPI_Comm C) {
  (void)Root;
  if (!activeSize(T))
    return 0;
  int Kind = opKind(Op);
  if (Kind == OpSum)
    return 0;
  return partials(Send == MPI_IN_PLACE ? Recv : Send, Count, T, Kind, C);
}

/* The adjoint of the result, on every rank: the sum of the ranks' adjoints
 * (allreduce) or the root's (reduce); the result's shadow is then zero. */
static void *resultAdjoint(void *DRecv, int Count, MPI_Datatype T, int Size,
                           int Root, MPI_Comm C) {
  void *G = zeros(Count, Size);
  if (Root < 0) {
    void *Z = DRecv ? 0 : zeros(Count, Size);
    MPI_Allreduce(DRecv ? DRecv : Z, G, Count, T, MPI_SUM, C);
    free(Z);
  } else {
    if (commRank(C) == Root && DRecv)
      memcpy(G, DRecv, (size_t)Count * Size);
    MPI_Bcast(G, Count, T, Root, C);
  }
  if (Root < 0 || commRank(C) == Root)
    zeroOut(DRecv, Count, Size);
  return G;
}

void __tapestry_mpi_reduce_rev(void *Aug, const void *Send, void *DSend,
                               void *DRecv, int Count, MPI_Datatype T,
                               MPI_Op Op, int Root, MPI_Comm C) {
  int Size = activeSize(T);
  if (!Size)
    return;
  opKind(Op); /* checked by the forward sweep; Aug has its partials */
  void *G = resultAdjoint(DRecv, Count, T, Size, Root, C);
  /* In place, the input was the receive buffer. */
  void *DIn = Send == MPI_IN_PLACE ? DRecv : DSend;
  addTo(DIn, G, Aug, Count, Size);
  free(G);
}

void __tapestry_mpi_free(void *P) { free(P); }

/* Called before the primal reduction. */
void __tapestry_mpi_reduce_fwd(const void *Send, const void *Recv,
                               const void *DSend, void *DRecv, int Count,
                               MPI_Datatype T, MPI_Op Op, int Root,
                               MPI_Comm C) {
  int Size = activeSize(T);
  if (!Size)
    return;
  int Kind = opKind(Op);
  int InPlace = Send == MPI_IN_PLACE;
  const void *DIn = InPlace ? DRecv : DSend;
  /* This rank's term of the result's tangent. */
  void *Term = zeros(Count, Size);
  if (DIn)
    memcpy(Term, DIn, (size_t)Count * Size);
  if (Kind != OpSum) {
    double *P = partials(InPlace ? Recv : Send, Count, T, Kind, C);
    for (int I = 0; I < Count; ++I)
      if (Size == 8)
        ((double *)Term)[I] *= P[I];
      else
        ((float *)Term)[I] = (float)(((float *)Term)[I] * P[I]);
    free(P);
  }
  void *Out = DRecv ? DRecv : zeros(Count, Size);
  if (Root < 0)
    MPI_Allreduce(Term, Out, Count, T, MPI_SUM, C);
  else
    MPI_Reduce(Term, Out, Count, T, MPI_SUM, Root, C);
  if (!DRecv)
    free(Out);
  free(Term);
}

/* The element size of a gather's or scatter's blocks (0 if inactive): an
 * in-place root ignores the datatype of the side it passes MPI_IN_PLACE for
 * (\p Side), and its blocks have the other side's datatype. */
static int rootedSize(int IsRoot, const void *Side, MPI_Datatype SideType,
                      MPI_Datatype OtherType) {
  return activeSize(IsRoot && Side == MPI_IN_PLACE ? OtherType : SideType);
}

/* Gather: the root's receive buffer holds size blocks of RCount. */
void __tapestry_mpi_gather_rev(const void *Send, void *DSend, int SCount,
                               MPI_Datatype ST, void *DRecv, int RCount,
                               MPI_Datatype RT, int Root, MPI_Comm C) {
  int Me = commRank(C), N = commSize(C);
  int IsRoot = Me == Root;
  /* The send type is ignored by an in-place root, the receive type off the
   * root. */
  int Size = rootedSize(IsRoot, Send, ST, RT);
  if (!Size)
    return;
  void *Z = IsRoot && !DRecv ? zeros(RCount * N, Size) : 0;
  void *All = IsRoot ? (DRecv ? DRecv : Z) : 0;
  if (IsRoot && Send == MPI_IN_PLACE) {
    /* The root's own block stays where it was: its adjoint too. */
    MPI_Scatter(All, RCount, RT, MPI_IN_PLACE, RCount, RT, Root, C);
    if (DRecv)
      for (int B = 0; B < N; ++B)
        if (B != Root)
          zeroOut((char *)DRecv + (size_t)B * RCount * Size, RCount, Size);
  } else {
    void *Tmp = zeros(SCount, Size);
    MPI_Scatter(All, RCount, RT, Tmp, SCount, ST, Root, C);
    addTo(DSend, Tmp, 0, SCount, Size);
    free(Tmp);
    if (IsRoot)
      zeroOut(DRecv, RCount * N, Size);
  }
  free(Z);
}

void __tapestry_mpi_gather_fwd(const void *Send, const void *DSend, int SCount,
                               MPI_Datatype ST, void *DRecv, int RCount,
                               MPI_Datatype RT, int Root, MPI_Comm C) {
  int N = commSize(C), IsRoot = commRank(C) == Root;
  int Size = rootedSize(IsRoot, Send, ST, RT);
  if (!Size)
    return;
  void *ZS = Send != MPI_IN_PLACE && !DSend ? zeros(SCount, Size) : 0;
  void *ZR = IsRoot && !DRecv ? zeros(RCount * N, Size) : 0;
  MPI_Gather(Send == MPI_IN_PLACE ? MPI_IN_PLACE : (DSend ? DSend : ZS), SCount,
             ST, DRecv ? DRecv : ZR, RCount, RT, Root, C);
  free(ZS);
  free(ZR);
}

void __tapestry_mpi_scatter_rev(void *DSend, int SCount, MPI_Datatype ST,
                                const void *Recv, void *DRecv, int RCount,
                                MPI_Datatype RT, int Root, MPI_Comm C) {
  int N = commSize(C), IsRoot = commRank(C) == Root;
  /* The receive type is ignored by an in-place root, the send type off the
   * root. */
  int Size = rootedSize(IsRoot, Recv, RT, ST);
  if (!Size)
    return;
  void *Tmp = IsRoot ? zeros(SCount * N, Size) : 0;
  if (IsRoot && Recv == MPI_IN_PLACE) {
    /* The root's block stayed in the send buffer: its adjoint too. */
    MPI_Gather(MPI_IN_PLACE, RCount, RT, Tmp, SCount, ST, Root, C);
  } else {
    void *Z = DRecv ? 0 : zeros(RCount, Size);
    MPI_Gather(DRecv ? DRecv : Z, RCount, RT, Tmp, SCount, ST, Root, C);
    zeroOut(DRecv, RCount, Size);
    free(Z);
  }
  if (IsRoot)
    addTo(DSend, Tmp, 0, SCount * N, Size);
  free(Tmp);
}

void __tapestry_mpi_scatter_fwd(const void *DSend, int SCount, MPI_Datatype ST,
                                const void *Recv, void *DRecv, int RCount,
                                MPI_Datatype RT, int Root, MPI_Comm C) {
  int N = commSize(C), IsRoot = commRank(C) == Root;
  int Size = rootedSize(IsRoot, Recv, RT, ST);
  if (!Size)
    return;
  void *ZS = IsRoot && !DSend ? zeros(SCount * N, Size) : 0;
  void *ZR = Recv != MPI_IN_PLACE && !DRecv ? zeros(RCount, Size) : 0;
  MPI_Scatter(DSend ? DSend : ZS, SCount, ST,
              Recv == MPI_IN_PLACE ? MPI_IN_PLACE : (DRecv ? DRecv : ZR),
              RCount, RT, Root, C);
  free(ZS);
  free(ZR);
}

void __tapestry_mpi_allgather_rev(const void *Send, void *DSend, int SCount,
                                  MPI_Datatype ST, void *DRecv, int RCount,
                                  MPI_Datatype RT, MPI_Comm C) {
  int Size = activeSize(RT);
  if (!Size)
    return;
  (void)ST;
  int Me = commRank(C), N = commSize(C);
  void *Z = DRecv ? 0 : zeros(RCount * N, Size);
  void *Tmp = zeros(RCount, Size);
  /* Block b of every rank's result came from rank b. */
  MPI_Reduce_scatter_block(DRecv ? DRecv : Z, Tmp, RCount, RT, MPI_SUM, C);
  zeroOut(DRecv, RCount * N, Size);
  if (Send == MPI_IN_PLACE)
    addTo(DRecv ? (char *)DRecv + (size_t)Me * RCount * Size : 0, Tmp, 0,
          RCount, Size);
  else
    addTo(DSend, Tmp, 0, SCount, Size);
  free(Tmp);
  free(Z);
}

void __tapestry_mpi_allgather_fwd(const void *Send, const void *DSend,
                                  int SCount, MPI_Datatype ST, void *DRecv,
                                  int RCount, MPI_Datatype RT, MPI_Comm C) {
  int Size = activeSize(RT);
  if (!Size)
    return;
  int N = commSize(C);
  void *ZS = Send != MPI_IN_PLACE && !DSend ? zeros(SCount, Size) : 0;
  void *ZR = DRecv ? 0 : zeros(RCount * N, Size);
  MPI_Allgather(Send == MPI_IN_PLACE ? MPI_IN_PLACE : (DSend ? DSend : ZS),
                SCount, ST, DRecv ? DRecv : ZR, RCount, RT, C);
  free(ZS);
  free(ZR);
}
