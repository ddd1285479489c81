//===- StructArgumentDecoding.cpp - Structs passed by value ---------------===//
//
// Part of the request decoder (RequestDecoderImpl.h): markers on structs passed
// by value, in the source spelling (one marker for a struct, its shadow a
// struct too) or on the C ABI's pieces (Passes/StructArguments.h), byval
// copies, struct results returned through memory, and the error that explains a
// marker that does not line up with a struct's pieces.
//
//===----------------------------------------------------------------------===//
#include "Passes/RequestDecoderImpl.h"

#include "Core/Batch.h"
#include "Core/Diagnostics.h"
#include "Core/Markers.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

const AbiStruct *Decoder::structParamOf(unsigned ParamNo) const {
  for (const AbiStruct &S : StructParams)
    if (ParamNo >= S.First && ParamNo < S.First + S.Count)
      return &S;
  return nullptr;
}

Value *Decoder::copyByVal(Value *Ptr, Type *Ty) {
  if (DryRun)
    return Ptr;
  Function &F = *CB.getFunction();
  const DataLayout &DL = F.getDataLayout();
  IRBuilder<> EB(&F.getEntryBlock(), F.getEntryBlock().begin());
  AllocaInst *Copy = EB.CreateAlloca(Ty, nullptr, "tapestry.byval");
  Align A = DL.getPrefTypeAlign(Ty);
  Copy->setAlignment(A);
  B.CreateMemCpy(Copy, A, Ptr, DL.getABITypeAlign(Ty), DL.getTypeAllocSize(Ty));
  return Copy;
}

/// Struct value \p V spelled member by member, each after \p Marker and
/// followed by its shadow if \p WithShadow ("enzyme_dup, v.a, dv.a,
/// enzyme_dup, v.b, dv.b"), or "" if that is not a spelling that lines up
/// (debug info does not name the members, or one piece holds several).
static std::string memberSpelling(const AbiStruct &V, StringRef Name,
                                  StringRef Marker, bool WithShadow) {
  if (V.Members.size() != V.Count || Name.empty())
    return "";
  std::string S;
  for (const std::string &M : V.Members) {
    if (M.empty())
      return "";
    S += (S.empty() ? "" : ", ") + (Marker + ", " + Name + "." + M).str();
    if (WithShadow)
      S += (", d" + Name + "." + M).str();
  }
  return S;
}

/// Struct value \p V spelled member by member with the marker each member
/// takes in reverse mode: enzyme_out for floating point, enzyme_dup and a
/// shadow for pointers, enzyme_const for the rest; "" where that does not
/// line up (as memberSpelling).
static std::string mixedMemberSpelling(const AbiStruct &V, StringRef Name,
                                       FunctionType *FT) {
  if (V.Members.size() != V.Count || Name.empty())
    return "";
  std::string S;
  for (unsigned I = 0; I < V.Count; ++I) {
    const std::string &M = V.Members[I];
    if (M.empty())
      return "";
    Type *PT = FT->getParamType(V.First + I);
    std::string Member = (Name + "." + M).str();
    S += S.empty() ? "" : ", ";
    if (PT->isFPOrFPVectorTy())
      S += "enzyme_out, " + Member;
    else if (PT->isPtrOrPtrVectorTy())
      S += "enzyme_dup, " + Member + ", d" + Member;
    else
      S += "enzyme_const, " + Member;
  }
  return S;
}

bool Decoder::decodeStructParam(const AbiStruct &S,
                                std::optional<Activity> Marked, bool Strided,
                                bool &Handled) {
  if (MarkersOnly) {
    // One marker for all the pieces (tapestry::Const<S> of a struct of
    // two doubles).
    if (!MarkersPerSourceParam)
      return true;
    for (unsigned I = 0; I < S.Count; ++I)
      if (!decodeParam(S.First + I, Marked, Strided))
        return false;
    Handled = true;
    return true;
  }
  std::optional<AbiStruct> V = structValueAt(CB, Next);
  // The caller's name for the struct, if known, else the parameter's.
  std::string Name = V && !V->Name.empty() ? V->Name
                     : S.Name.empty()      ? "v"
                                           : S.Name;
  std::string What = "parameter " + std::to_string(S.First + 1) + " of '" +
                     sourceIdentifier(*Fn) + "', " + S.describe();
  FunctionType *FT = Fn->getFunctionType();
  bool Whole = V && V->ByVal == S.ByVal && V->Count == S.Count;
  for (unsigned I = 0; Whole && I < S.Count; ++I)
    Whole =
        CB.getArgOperand(Next + I)->getType() == FT->getParamType(S.First + I);
  // A variadic call that ran out of registers passes the struct in memory
  // though the function takes it in pieces.
  SmallVector<Value *, 4> Unused;
  if (!Whole && !(!S.ByVal && structPiecesAt(S, Next, Unused, /*Emit=*/false)))
    return true; // piece by piece, as Enzyme reads it
  if (S.ByVal) {
    // The struct spelled by value, passed in memory.
    if (Mode == DiffMode::Forward)
      return true; // enzyme_dup, v, dv or enzyme_const, v: copies suffice
    Activity A = Marked.value_or(Activity::Active);
    if (A == Activity::Dup || A == Activity::DupNoNeed)
      return error(activityName(A) + " on " + What +
                   ", which the C ABI passes by value in memory: its adjoint "
                   "would be accumulated into a copy of the shadow and lost; "
                   "write enzyme_out, " +
                   Name + " to get its adjoint returned (as a " +
                   (S.TypeName.empty() ? "struct" : S.TypeName) +
                   "), or pass pointers: enzyme_dup, &" + Name + ", &d" + Name);
    if (A == Activity::Const)
      return true;
    if (Split || Width != 1)
      return error("enzyme_out on " + What +
                   ", passed by value in memory, is not supported in " +
                   (Split ? "split mode" : "batch mode") +
                   "; pass pointers instead: enzyme_dup, &" + Name + ", &d" +
                   Name);
    // Active: differentiate with a zeroed shadow and return what it holds.
    Value *Primal = CB.getArgOperand(Next++);
    noteRole(Next - 1, S.First, 0);
    WholeValues.push_back(Next - 1);
    Type *Ty = Fn->getParamByValType(S.First);
    Value *Shadow = Primal;
    if (!DryRun) {
      Function &F = *CB.getFunction();
      const DataLayout &DL = F.getDataLayout();
      IRBuilder<> EB(&F.getEntryBlock(), F.getEntryBlock().begin());
      AllocaInst *Buf = EB.CreateAlloca(Ty, nullptr, "tapestry.adjoint");
      Buf->setAlignment(DL.getPrefTypeAlign(Ty));
      B.CreateMemSet(Buf, B.getInt8(0), DL.getTypeAllocSize(Ty),
                     Buf->getAlign());
      Shadow = Buf;
      Primal = copyByVal(Primal, Ty);
    }
    Out.Request.Args.push_back(Activity::Dup);
    Out.Primals.push_back(Primal);
    Out.Shadows.push_back(Shadow);
    Out.ByValAdjoints.push_back({S.First, Shadow, Ty});
    Handled = true;
    return true;
  }
  if (S.Count < 2)
    return true; // one piece: the markers line up already
  std::string Members = memberSpelling(S, Name, "enzyme_dup", true);
  std::string PieceSpelling =
      Members.empty() ? ""
                      : ", or each member after its own marker: " + Members;
  bool AnyFloat = false, AnyPointer = false;
  for (unsigned I = 0; I < S.Count; ++I) {
    AnyFloat |= FT->getParamType(S.First + I)->isFPOrFPVectorTy();
    AnyPointer |= FT->getParamType(S.First + I)->isPtrOrPtrVectorTy();
  }
  std::string Mixed = mixedMemberSpelling(S, Name, FT);
  std::string MixedSpelling =
      Mixed.empty() ? "" : "; or give each member its own marker: " + Mixed;
  std::optional<Activity> A = Marked;
  if (!A && Mode == DiffMode::Reverse)
    A = Activity::Active; // per piece: floating point active, others constant
  if (!A) {
    // Forward mode without a marker: enzyme_dup if tangents follow.
    std::optional<AbiStruct> T = structValueAt(CB, Next + S.Count);
    if (!T || T->ByVal || T->Count != S.Count)
      return true;
    A = Activity::Dup;
  }
  if (*A == Activity::Active && Mode == DiffMode::Forward)
    return true; // decodeParam says enzyme_out is for reverse mode
  if (*A != Activity::Const && !S.HiddenFloat.empty())
    return error(What + " is passed by value as " + Twine(S.Count) +
                 " values, and the C ABI packs its floating-point member '" +
                 S.HiddenFloat +
                 "' with integer members into an integer register, where "
                 "its derivative cannot be followed; change '" +
                 sourceIdentifier(*Fn) +
                 "' to take a pointer to the struct (then pass enzyme_dup, &" +
                 Name + ", &d" + Name + ") or mark it enzyme_const");
  if (*A == Activity::Active && !AnyFloat)
    return error("enzyme_out marks active floating-point values, but " + What +
                 " has no floating-point member the C ABI passes as one" +
                 (AnyPointer ? "; for the data its pointers point to, pass "
                               "a struct of the same type whose pointers "
                               "point to the shadows: enzyme_dup, " +
                                   Name + ", d" + Name
                             : ""));
  // The data its pointers point to is no part of the struct's adjoint:
  // taken as constant, its derivative would be lost without a word.
  if (*A == Activity::Active && AnyPointer)
    return error("enzyme_out on " + What +
                 ", which has pointer members: enzyme_out returns the "
                 "adjoints of its floating-point members, and the data its "
                 "pointers point to would be taken as constant; change '" +
                 sourceIdentifier(*Fn) +
                 "' to take a pointer to the struct (then enzyme_dup, &" +
                 Name + ", &d" + Name + ")" + MixedSpelling);
  if (*A == Activity::Active && Width != 1)
    // Each piece's adjoint would come back as its lanes, piece after piece,
    // not as one struct per lane.
    return error("enzyme_out on " + What +
                 ", which the C ABI passes by "
                 "value as " +
                 Twine(S.Count) +
                 " values, is not supported in batch mode (enzyme_width); "
                 "request one lane at a time, or change '" +
                 sourceIdentifier(*Fn) +
                 "' to take a pointer to the struct (then enzyme_dup with "
                 "one shadow per lane)");
  bool HasShadow = *A == Activity::Dup || *A == Activity::DupNoNeed;
  // A struct of pointers and integers has no adjoint of its own: its
  // pointers' shadows, given in the shadow struct, receive the adjoints.
  if (HasShadow && Mode == DiffMode::Reverse && AnyFloat)
    return error(activityName(*A) + " on " + What +
                 ", which the C ABI passes by value as " + Twine(S.Count) +
                 " values: in reverse mode " +
                 (AnyPointer ? ""
                             : "write enzyme_out, " + Name +
                                   " to get its adjoint returned (a "
                                   "struct of the same type), or ") +
                 "change '" + sourceIdentifier(*Fn) +
                 "' to take a pointer and pass enzyme_dup, &" + Name + ", &d" +
                 Name + (AnyPointer ? MixedSpelling : ""));
  if (HasShadow && Strided)
    return error("enzyme_dupv on " + What +
                 ", which the C ABI passes by value as " + Twine(S.Count) +
                 " values, is not supported; pass each tangent after "
                 "enzyme_dup");
  // The values: the struct, then (with a shadow) Width tangents of its
  // type, each in pieces or (out of registers) in memory.
  unsigned Lanes = HasShadow ? Width : 0;
  SmallVector<SmallVector<Value *, 4>, 3> Values(Lanes + 1);
  SmallVector<unsigned, 3> Starts, Used;
  unsigned At = Next;
  for (unsigned L = 0; L <= Lanes; ++L) {
    unsigned N = structPiecesAt(S, At, Values[L]);
    if (!N)
      return error(
          activityName(*A) + " on " + What +
          ", which the C ABI passes by value as " + Twine(S.Count) +
          " values, must be followed by the struct and " +
          (Width == 1 ? Twine("its tangent") : Twine(Width) + " tangents") +
          " of the same type (enzyme_dup, " + Name + ", d" + Name + ")" +
          PieceSpelling);
    Starts.push_back(At);
    Used.push_back(N);
    At += N;
  }
  for (unsigned I = 0; I < S.Count; ++I) {
    unsigned ParamNo = S.First + I;
    Type *PT = FT->getParamType(ParamNo);
    // Floating-point members carry the marker's activity, and so do
    // pointers where a shadow struct follows (their shadows are its
    // pointers); integers are constant.
    bool IsFP =
        PT->isFPOrFPVectorTy() || (HasShadow && PT->isPtrOrPtrVectorTy());
    Activity PA = IsFP ? *A : Activity::Const;
    Out.Request.Args.push_back(PA);
    Out.Primals.push_back(Values[0][I]);
    SmallVector<Value *, 8> Shadows;
    for (unsigned L = 0; L <= Lanes; ++L) {
      noteRole(Starts[L] + std::min(I, Used[L] - 1), ParamNo, L);
      if (L && IsFP)
        Shadows.push_back(Values[L][I]);
    }
    Out.Shadows.push_back(Shadows.empty() || DryRun
                              ? (Shadows.empty() ? nullptr : Shadows.front())
                              : gatherLanes(B, PT, Shadows));
  }
  append_range(WholeValues, Starts);
  Next = At;
  Handled = true;
  return true;
}

unsigned Decoder::structPiecesAt(const AbiStruct &S, unsigned At,
                                 SmallVectorImpl<Value *> &Pieces, bool Emit) {
  Pieces.clear();
  FunctionType *FT = Fn->getFunctionType();
  std::optional<AbiStruct> T = structValueAt(CB, At);
  if (!T)
    return 0;
  if (!T->ByVal) {
    if (T->Count != S.Count)
      return 0;
    for (unsigned I = 0; I < S.Count; ++I) {
      Value *Piece = CB.getArgOperand(At + I);
      if (Piece->getType() != FT->getParamType(S.First + I))
        return 0;
      Pieces.push_back(Piece);
    }
    return S.Count;
  }
  // In memory: the same struct type, whose pieces are its eightbytes
  // (x86-64 C ABI), piece I at byte 8 I.
  Type *Ty = CB.getParamByValType(At);
  const DataLayout &DL = CB.getDataLayout();
  if (!S.Ty || !Ty || S.Ty != Ty)
    return 0;
  uint64_t Size = DL.getTypeAllocSize(Ty);
  for (unsigned I = 0; I < S.Count; ++I) {
    Type *PT = FT->getParamType(S.First + I);
    if (8 * I + DL.getTypeStoreSize(PT) > Size)
      return 0;
  }
  Value *Ptr = CB.getArgOperand(At);
  for (unsigned I = 0; I < S.Count; ++I) {
    Type *PT = FT->getParamType(S.First + I);
    Pieces.push_back(
        DryRun || !Emit
            ? static_cast<Value *>(PoisonValue::get(PT))
            : B.CreateLoad(
                  PT, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ptr, 8 * I),
                  "piece"));
  }
  return 1;
}

/// "struct V2" or "a struct": the type \p F returns, as debug info names it.
static std::string returnedStructName(const Function &F) {
  if (DISubprogram *SP = F.getSubprogram())
    if (DISubroutineType *T = SP->getType())
      if (T->getTypeArray().size() > 0)
        if (DIType *R = T->getTypeArray()[0]; R && !R->getName().empty())
          return "struct " + R->getName().str();
  return "a struct";
}

void Decoder::decodeStructReturn(Type *RetTy) {
  auto *ST = dyn_cast<StructType>(RetTy);
  if (!ST || !ST->isLiteral() ||
      none_of(ST->elements(), [](Type *E) { return E->isFPOrFPVectorTy(); }))
    return;
  std::string Fun = "'" + sourceIdentifier(*Fn) + "'";
  if (any_of(ST->elements(), [](Type *E) { return !E->isFPOrFPVectorTy(); })) {
    error(Fun + " returns " + returnedStructName(*Fn) +
          " by value, which mixes floating-point and other members; the "
          "derivative of such a result is not supported: return it through a "
          "pointer parameter (enzyme_dup, &out, &dout), or add "
          "enzyme_const_return if the result is not to be differentiated");
    return;
  }
  if (Mode == DiffMode::Forward && !Split) {
    if (Width != 1) {
      error(Fun + " returns " + returnedStructName(*Fn) +
            " by value; batch mode (enzyme_width) "
            "does not return the tangents of a struct yet: request "
            "one direction at a time, or add enzyme_const_return");
      return;
    }
    Out.Request.ReturnActive = true;
    return;
  }
  // Reverse mode, Enzyme's rule: the result is active. __enzyme_autodiff
  // seeds every member with 1 (the gradient of the sum of the members);
  // split mode's reverse takes the seed after the arguments, by address
  // (enzyme_byref, N, &seed). enzyme_const_return, as <enzyme/enzyme>
  // passes by default for a class result, makes it constant.
  Out.Request.ReturnActive = true;
}

unsigned Decoder::activityMarkers() const {
  unsigned Markers = 0;
  for (unsigned Op = 0; Op < CB.arg_size(); ++Op) {
    StringRef M = markerName(CB.getArgOperand(Op));
    Markers += markerKind(M) == MarkerKind::Activity;
  }
  return Markers;
}

unsigned Decoder::sourceParams() const {
  unsigned SourceParams = Fn->arg_size();
  for (const AbiStruct &S : StructParams)
    if (S.Count > 1)
      SourceParams -= S.Count - 1;
  return SourceParams;
}

void Decoder::checkMarkersOnlyStructs() {
  unsigned Markers = activityMarkers();
  unsigned SourceParams = sourceParams();
  const AbiStruct *Split = nullptr;
  for (const AbiStruct &S : StructParams)
    if (S.Count > 1) {
      Split = &S;
      break;
    }
  if (!Split || MarkersPerSourceParam || Markers != SourceParams ||
      Markers == Fn->arg_size())
    return;
  error("'" + sourceIdentifier(*Fn) + "' takes " + Split->describe() +
        " by value, which the C ABI passes as " + Twine(Split->Count) +
        " values, and the markers of " + entryName() +
        " apply to each of them: give one marker per value, " +
        Twine(Fn->arg_size()) + " markers rather than " + Twine(Markers) +
        " (parameters " + Twine(Split->First + 1) + " to " +
        Twine(Split->First + Split->Count) + " are the struct's pieces)");
}

std::string Decoder::roleName(unsigned ParamNo, unsigned Role) const {
  std::string P = "parameter " + std::to_string(ParamNo + 1);
  if (Role == 0)
    return "the value of " + P;
  std::string Word = Mode == DiffMode::Forward ? "tangent" : "shadow";
  if (Width == 1)
    return "the " + Word + " of " + P;
  return Word + " " + std::to_string(Role) + " of " + P;
}

std::optional<std::string> Decoder::structMisalignment() const {
  unsigned First = (Out.SRet ? 1 : 0) + 1;
  for (unsigned Op = First; Op < CB.arg_size(); ++Op) {
    if (is_contained(WholeValues, Op))
      continue;
    std::optional<AbiStruct> V = structValueAt(CB, Op);
    if (!V || V->ByVal || V->Count < 2)
      continue;
    // The roles its pieces got; consistent if the same role of
    // consecutive parameters.
    SmallVector<std::string, 4> Got;
    bool Consistent = true;
    std::optional<std::pair<unsigned, unsigned>> Prev;
    for (unsigned I = 0; I < V->Count; ++I) {
      auto It = Roles.find(Op + I);
      if (It == Roles.end()) {
        Got.push_back("left over");
        continue;
      }
      auto [ParamNo, Role] = It->second;
      Got.push_back(roleName(ParamNo, Role));
      if (Prev && (Prev->second != Role || Prev->first + 1 != ParamNo))
        Consistent = false;
      Prev = It->second;
    }
    std::string Name = V->Name.empty() ? "v" : V->Name;
    bool Fwd = Mode == DiffMode::Forward;
    auto FirstRole = Roles.find(Op);
    if (Consistent && FirstRole != Roles.end() &&
        is_contained(MarkedParams, FirstRole->second.first)) {
      // A marker before the struct applies to its first piece only: the
      // others get the default activity, which had better agree.
      unsigned P0 = FirstRole->second.first;
      FunctionType *FT = Fn->getFunctionType();
      for (unsigned I = 1; I < V->Count && Consistent; ++I) {
        unsigned P = P0 + I;
        if (P < Out.Request.Args.size() &&
            FT->getParamType(P)->isFPOrFPVectorTy() &&
            Out.Request.Args[P] != Out.Request.Args[P0])
          Consistent = false;
      }
      if (!Consistent) {
        StringRef Marker = activityName(Out.Request.Args[P0]);
        std::string Members =
            memberSpelling(*V, Name, Marker,
                           Out.Request.Args[P0] == Activity::Dup ||
                               Out.Request.Args[P0] == Activity::DupNoNeed);
        return ("the C ABI passes " + V->describe() + " as " + Twine(V->Count) +
                " values to " + entryPointName(CB) +
                ", and Enzyme's markers apply to each of them: " + Marker +
                " before it marks only the first (parameter " + Twine(P0 + 1) +
                " of '" + sourceIdentifier(*Fn) +
                "'), and the others get the default activity; mark each "
                "member after its own marker" +
                (Members.empty() ? "" : " (" + Members + ")"))
            .str();
      }
    }
    if (Consistent) {
      Op += V->Count - 1;
      continue;
    }
    std::string Msg = "the C ABI passes " + V->describe() + " as " +
                      std::to_string(V->Count) + " values to " +
                      entryPointName(CB).str() +
                      ", and Enzyme's markers apply to each of them, so its "
                      "pieces do not line up with the parameters of '" +
                      sourceIdentifier(*Fn) + "': they would be ";
    for (unsigned I = 0; I < Got.size(); ++I)
      Msg += (I ? I + 1 == Got.size() ? " and " : ", " : "") + Got[I];
    Msg += "; ";
    bool TakesStruct = false;
    for (const AbiStruct &S : StructParams)
      TakesStruct |= S.Count == V->Count && !S.ByVal;
    if (TakesStruct && Fwd)
      Msg += "pass the struct and its tangent whole (enzyme_dup, " + Name +
             ", d" + Name + ", both of type " +
             (V->TypeName.empty() ? "struct" : V->TypeName) + ") or ";
    else if (TakesStruct)
      Msg += "pass the struct whole (enzyme_out, " + Name +
             " returns its adjoint, enzyme_const, " + Name + " none) or ";
    std::string Members =
        memberSpelling(*V, Name, Fwd ? "enzyme_dup" : "enzyme_out", Fwd);
    Msg += "pass each member after its own marker" +
           (Members.empty() ? std::string() : " (" + Members + ")");
    return Msg;
  }
  return std::nullopt;
}

} // namespace tapestry
