//===- StructArguments.cpp - Structs the C ABI splits or passes in memory -===//
//
// Implements StructArguments.h: structParams (a callee's struct parameters,
// from the stores of its pieces into the parameter's local) and structValueAt
// (the struct a caller's pieces are loaded from), with each member's source
// name and type from debug information when there is some, else from the IR
// type. It reads -O0 IR as clang emits it and changes nothing.
//
//===----------------------------------------------------------------------===//
#include "Passes/StructArguments.h"

#include "Core/SourceTypes.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

std::string AbiStruct::describe() const {
  // A C tag names itself ("struct V2"); a typedef or C++ name does not.
  bool Tagged = StringRef(TypeName).starts_with("struct ") ||
                StringRef(TypeName).starts_with("union ");
  std::string S = TypeName.empty() ? "a struct"
                  : Tagged         ? TypeName
                                   : "struct " + TypeName;
  if (!Name.empty())
    S += " '" + Name + "'";
  return S;
}

namespace {

/// A scalar member of a struct: its byte range, whether it is floating
/// point, and its source path ("in.x"), "" if unknown.
struct Leaf {
  uint64_t Offset, Size;
  bool IsFloat;
  std::string Path;
};

} // namespace

/// The local variable \p V is declared as in debug info, or null.
static DILocalVariable *declaredVariable(Value *V) {
  for (DbgVariableRecord *DVR : findDVRDeclares(V))
    return DVR->getVariable();
  for (DbgDeclareInst *DDI : findDbgDeclares(V))
    return DDI->getVariable();
  // With optimisation clang tracks assignments (DIAssignID) instead.
  if (auto *I = dyn_cast<Instruction>(V)) {
    for (DbgVariableRecord *DVR : at::getDVRAssignmentMarkers(I))
      return DVR->getVariable();
    for (DbgAssignIntrinsic *DAI : at::getAssignmentMarkers(I))
      return DAI->getVariable();
  }
  return nullptr;
}

static const DIType *stripTypedefs(const DIType *T) {
  while (auto *D = dyn_cast_or_null<DIDerivedType>(T)) {
    if (D->getTag() != dwarf::DW_TAG_typedef &&
        D->getTag() != dwarf::DW_TAG_const_type &&
        D->getTag() != dwarf::DW_TAG_volatile_type)
      break;
    T = D->getBaseType();
  }
  return T;
}

/// The scalar members of a debug-info type, flattened with their offsets.
static void debugLeaves(const DIType *T, uint64_t Offset, std::string Path,
                        SmallVectorImpl<Leaf> &Out, unsigned Depth = 0) {
  T = stripTypedefs(T);
  if (!T || Depth > 8)
    return;
  if (auto *CT = dyn_cast<DICompositeType>(T)) {
    if (CT->getTag() == dwarf::DW_TAG_array_type) {
      const DIType *E = CT->getBaseType();
      uint64_t N = 0, ES = stripTypedefs(E)
                               ? stripTypedefs(E)->getSizeInBits() / 8
                               : 0;
      if (DINodeArray Elts = CT->getElements(); Elts.size() == 1)
        if (auto *SR = dyn_cast<DISubrange>(Elts[0]))
          if (auto *C = dyn_cast_if_present<ConstantInt *>(SR->getCount()))
            N = C->getZExtValue();
      for (uint64_t I = 0; I < N && I < 64; ++I)
        debugLeaves(E, Offset + I * ES, Path + "[" + std::to_string(I) + "]",
                    Out, Depth + 1);
      return;
    }
    for (Metadata *M : CT->getElements()) {
      auto *Member = dyn_cast_or_null<DIDerivedType>(M);
      if (!Member || Member->getTag() != dwarf::DW_TAG_member ||
          Member->isStaticMember())
        continue;
      std::string Sub =
          (Path.empty() ? "" : Path + ".") + Member->getName().str();
      debugLeaves(Member->getBaseType(), Offset + Member->getOffsetInBits() / 8,
                  Sub, Out, Depth + 1);
    }
    return;
  }
  if (auto *BT = dyn_cast<DIBasicType>(T)) {
    Out.push_back({Offset, BT->getSizeInBits() / 8,
                   BT->getEncoding() == dwarf::DW_ATE_float, Path});
    return;
  }
  // Pointers, enums and the like: not floating point.
  Out.push_back({Offset, T->getSizeInBits() / 8, false, Path});
}

/// The scalar members of an IR type, flattened with their offsets.
static void irLeaves(Type *T, uint64_t Offset, const DataLayout &DL,
                     SmallVectorImpl<Leaf> &Out, unsigned Depth = 0) {
  if (Depth > 8)
    return;
  if (auto *ST = dyn_cast<StructType>(T)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      irLeaves(ST->getElementType(I), Offset + SL->getElementOffset(I), DL, Out,
               Depth + 1);
  } else if (auto *AT = dyn_cast<ArrayType>(T)) {
    uint64_t ES = DL.getTypeAllocSize(AT->getElementType());
    for (uint64_t I = 0; I < AT->getNumElements() && I < 64; ++I)
      irLeaves(AT->getElementType(), Offset + I * ES, DL, Out, Depth + 1);
  } else if (T->isSized()) {
    Out.push_back({Offset, DL.getTypeStoreSize(T), T->isFPOrFPVectorTy(), ""});
  }
}

/// The type's source name as C or C++ writes it (sourceTypeName: a
/// typedef's name, "struct V2", "ns::V2"), without qualifiers; without
/// debug info the IR name without its "struct." prefix; "" if anonymous.
static std::string typeName(const DIType *DT, Type *T) {
  while (auto *D = dyn_cast_or_null<DIDerivedType>(DT))
    if (D->getTag() == dwarf::DW_TAG_const_type ||
        D->getTag() == dwarf::DW_TAG_volatile_type)
      DT = D->getBaseType();
    else
      break;
  if (DT) {
    std::string Name = sourceTypeName(DT);
    return Name == "(anonymous)" ? "" : Name;
  }
  if (auto *ST = dyn_cast_or_null<StructType>(T); ST && ST->hasName()) {
    StringRef N = ST->getName();
    for (StringRef P : {"struct.", "class.", "union."})
      if (N.consume_front(P))
        break;
    return N.str();
  }
  return "";
}

/// Fills the source-level description of \p S from the local \p Holder that
/// holds the struct (an alloca or a byval pointer): its type, debug names,
/// members, and which pieces (\p PieceRanges, byte ranges of each IR piece
/// and whether it is floating point) hide a floating-point member.
static void describeHolder(AbiStruct &S, Value *Holder, Type *Ty,
                           ArrayRef<Leaf> PieceRanges, const DataLayout &DL) {
  S.Ty = Ty;
  DILocalVariable *Var = Holder ? declaredVariable(Holder) : nullptr;
  const DIType *DT = Var ? Var->getType() : nullptr;
  if (Var)
    S.Name = Var->getName().str();
  S.TypeName = typeName(DT, Ty);
  SmallVector<Leaf, 8> Leaves;
  if (DT)
    debugLeaves(DT, 0, "", Leaves);
  else if (Ty)
    irLeaves(Ty, 0, DL, Leaves);
  for (const Leaf &L : Leaves)
    S.Members.push_back(L.Path);
  for (const Leaf &P : PieceRanges) {
    if (P.IsFloat)
      continue;
    for (const Leaf &L : Leaves)
      if (L.IsFloat && L.Offset < P.Offset + P.Size &&
          P.Offset < L.Offset + L.Size) {
        S.HiddenFloat = L.Path.empty() ? "?" : L.Path;
        return;
      }
  }
}

/// The local a coerced piece is stored to or loaded from: \p Ptr itself, or
/// the base of a GEP over the coerced literal struct type; \p Index and
/// \p Offset say which piece. Null if \p Ptr is neither.
static Value *pieceBase(Value *Ptr, const DataLayout &DL, unsigned &Index,
                        uint64_t &Offset, StructType *&Coerced) {
  Index = 0;
  Offset = 0;
  Coerced = nullptr;
  auto *GEP = dyn_cast<GetElementPtrInst>(Ptr);
  if (!GEP)
    return Ptr;
  auto *ST = dyn_cast<StructType>(GEP->getSourceElementType());
  if (!ST || !ST->isLiteral() || GEP->getNumIndices() != 2)
    return nullptr;
  auto *I0 = dyn_cast<ConstantInt>(GEP->getOperand(1));
  auto *I1 = dyn_cast<ConstantInt>(GEP->getOperand(2));
  if (!I0 || !I1 || !I0->isZero())
    return nullptr;
  Index = I1->getZExtValue();
  Offset = DL.getStructLayout(ST)->getElementOffset(Index);
  Coerced = ST;
  return GEP->getPointerOperand();
}

/// The local a coerce temporary \p Tmp is copied to or from (clang copies
/// a struct whose pieces are larger than it through one), or \p Tmp.
static Value *copiedHolder(Value *Tmp) {
  auto *AI = dyn_cast<AllocaInst>(Tmp);
  auto *ST = AI ? dyn_cast<StructType>(AI->getAllocatedType()) : nullptr;
  if (!ST || !ST->isLiteral())
    return Tmp;
  for (User *U : Tmp->users())
    if (auto *MC = dyn_cast<MemCpyInst>(U)) {
      Value *Other =
          MC->getRawDest() == Tmp ? MC->getRawSource() : MC->getRawDest();
      return getUnderlyingObject(Other);
    }
  return Tmp;
}

static Type *holderType(Value *Holder) {
  if (auto *AI = dyn_cast<AllocaInst>(Holder))
    return AI->getAllocatedType();
  if (auto *A = dyn_cast<Argument>(Holder))
    return A->getParamByValType();
  return nullptr;
}

static SmallVector<AbiStruct, 4> structParamsFromStores(const Function &CF) {
  Function &F = const_cast<Function &>(CF);
  const DataLayout &DL = F.getDataLayout();
  SmallVector<AbiStruct, 4> Out;
  Value *LastBase = nullptr;
  SmallVector<Leaf, 4> Pieces;
  auto Close = [&]() {
    if (Out.empty() || !LastBase)
      return;
    AbiStruct &S = Out.back();
    Value *Holder = copiedHolder(LastBase);
    describeHolder(S, Holder, holderType(Holder), Pieces, DL);
    LastBase = nullptr;
    Pieces.clear();
  };
  for (Argument &A : F.args()) {
    if (A.hasByValAttr()) {
      Close();
      AbiStruct S;
      S.First = A.getArgNo();
      S.Count = 1;
      S.ByVal = true;
      Out.push_back(S);
      describeHolder(Out.back(), &A, A.getParamByValType(), {}, DL);
      continue;
    }
    Value *Base = nullptr;
    unsigned Index = 0;
    uint64_t Offset = 0;
    for (User *U : A.users()) {
      auto *SI = dyn_cast<StoreInst>(U);
      if (!SI || SI->getValueOperand() != &A)
        continue;
      StructType *Coerced = nullptr;
      Value *B = pieceBase(SI->getPointerOperand(), DL, Index, Offset, Coerced);
      auto *AI = dyn_cast_or_null<AllocaInst>(B);
      if (!AI || !AI->getAllocatedType()->isAggregateType() ||
          (!Coerced && AI->getAllocatedType() == A.getType()))
        continue;
      Base = AI;
      break;
    }
    if (!Base || Base != LastBase || Index != Pieces.size()) {
      Close();
      if (!Base || Index != 0)
        continue;
      AbiStruct S;
      S.First = A.getArgNo();
      Out.push_back(S);
      LastBase = Base;
    }
    ++Out.back().Count;
    Pieces.push_back({Offset, DL.getTypeStoreSize(A.getType()),
                      A.getType()->isFPOrFPVectorTy(), ""});
  }
  Close();
  return Out;
}

static std::optional<AbiStruct> structValueFromLoads(const CallBase &CCB,
                                                     unsigned OpNo) {
  CallBase &CB = const_cast<CallBase &>(CCB);
  const DataLayout &DL = CB.getDataLayout();
  if (OpNo >= CB.arg_size())
    return std::nullopt;
  if (CB.paramHasAttr(OpNo, Attribute::ByVal)) {
    AbiStruct S;
    S.First = OpNo;
    S.Count = 1;
    S.ByVal = true;
    Value *Holder = getUnderlyingObject(CB.getArgOperand(OpNo));
    describeHolder(S, Holder, CB.getParamByValType(OpNo), {}, DL);
    return S;
  }
  auto *L = dyn_cast<LoadInst>(CB.getArgOperand(OpNo));
  unsigned Index;
  uint64_t Offset;
  StructType *Coerced;
  Value *Base =
      L ? pieceBase(L->getPointerOperand(), DL, Index, Offset, Coerced)
        : nullptr;
  if (Base && !Coerced && OpNo + 1 < CB.arg_size()) {
    // The first piece may be loaded from the struct's address itself (the
    // GEP to member 0 folded away, as after inlining); the second piece's
    // GEP names the coerced type.
    if (auto *L2 = dyn_cast<LoadInst>(CB.getArgOperand(OpNo + 1))) {
      unsigned I2;
      uint64_t O2;
      StructType *C2;
      if (pieceBase(L2->getPointerOperand(), DL, I2, O2, C2) == Base && C2 &&
          I2 == 1 && C2->getElementType(0) == L->getType())
        Coerced = C2;
    }
  }
  if (!Base || !Coerced || Index != 0)
    return std::nullopt;
  unsigned N = Coerced->getNumElements();
  if (N < 2 || OpNo + N > CB.arg_size())
    return std::nullopt;
  SmallVector<Leaf, 4> Pieces;
  for (unsigned I = 0; I < N; ++I) {
    auto *PL = dyn_cast<LoadInst>(CB.getArgOperand(OpNo + I));
    unsigned PI;
    uint64_t PO;
    StructType *PC;
    if (!PL || pieceBase(PL->getPointerOperand(), DL, PI, PO, PC) != Base ||
        (PC != Coerced && (I != 0 || PC)) || PI != I)
      return std::nullopt;
    Pieces.push_back({PO, DL.getTypeStoreSize(PL->getType()),
                      PL->getType()->isFPOrFPVectorTy(), ""});
  }
  AbiStruct S;
  S.First = OpNo;
  S.Count = N;
  Value *Holder = copiedHolder(getUnderlyingObject(Base));
  describeHolder(S, Holder, holderType(Holder), Pieces, DL);
  return S;
}

//===----------------------------------------------------------------------===//
// The grouping kept in metadata, for optimised IR (link time, the opt flow)
//===----------------------------------------------------------------------===//

static constexpr const char *ParamsMD = "tapestry.struct.params";
static constexpr const char *OperandsMD = "tapestry.struct.operands";
/// Module-level: every ParamsMD node, so that their types are printed.
static constexpr const char *TypesMD = "tapestry.struct.types";

/// {First, Count, ByVal, poison of Ty or null, Name, TypeName, HiddenFloat,
/// Members...}
static MDNode *encode(LLVMContext &C, const AbiStruct &S) {
  Type *I32 = Type::getInt32Ty(C);
  SmallVector<Metadata *, 8> Ops = {
      ConstantAsMetadata::get(ConstantInt::get(I32, S.First)),
      ConstantAsMetadata::get(ConstantInt::get(I32, S.Count)),
      ConstantAsMetadata::get(ConstantInt::get(I32, S.ByVal)),
      S.Ty ? (Metadata *)ConstantAsMetadata::get(PoisonValue::get(S.Ty))
           : nullptr,
      MDString::get(C, S.Name),
      MDString::get(C, S.TypeName),
      MDString::get(C, S.HiddenFloat)};
  for (const std::string &M : S.Members)
    Ops.push_back(MDString::get(C, M));
  return MDNode::get(C, Ops);
}

static std::optional<AbiStruct> decode(const MDNode *N) {
  if (!N || N->getNumOperands() < 7)
    return std::nullopt;
  auto Int = [&](unsigned I) -> std::optional<unsigned> {
    auto *C = mdconst::dyn_extract_or_null<ConstantInt>(N->getOperand(I));
    return C ? std::optional<unsigned>(C->getZExtValue()) : std::nullopt;
  };
  auto Str = [&](unsigned I) {
    auto *M = dyn_cast_or_null<MDString>(N->getOperand(I));
    return M ? M->getString().str() : std::string();
  };
  std::optional<unsigned> First = Int(0), Count = Int(1), ByVal = Int(2);
  if (!First || !Count || !ByVal)
    return std::nullopt;
  AbiStruct S;
  S.First = *First;
  S.Count = *Count;
  S.ByVal = *ByVal;
  if (auto *T = mdconst::dyn_extract_or_null<Constant>(N->getOperand(3)))
    S.Ty = T->getType();
  S.Name = Str(4);
  S.TypeName = Str(5);
  S.HiddenFloat = Str(6);
  for (unsigned I = 7; I < N->getNumOperands(); ++I)
    S.Members.push_back(Str(I));
  return S;
}

/// The groups a node lists, if it lists them for \p NumValues values.
static std::optional<SmallVector<AbiStruct, 4>> decodeAll(const MDNode *N,
                                                          unsigned NumValues) {
  if (!N || N->getNumOperands() < 1)
    return std::nullopt;
  auto *Total = mdconst::dyn_extract_or_null<ConstantInt>(N->getOperand(0));
  if (!Total || Total->getZExtValue() != NumValues)
    return std::nullopt; // the signature changed since: not to be trusted
  SmallVector<AbiStruct, 4> Out;
  for (unsigned I = 1; I < N->getNumOperands(); ++I) {
    std::optional<AbiStruct> S =
        decode(dyn_cast_or_null<MDNode>(N->getOperand(I)));
    if (!S || S->First + S->Count > NumValues)
      return std::nullopt;
    Out.push_back(*S);
  }
  return Out;
}

static MDNode *encodeAll(LLVMContext &C, ArrayRef<AbiStruct> All,
                         unsigned NumValues) {
  SmallVector<Metadata *, 4> Ops = {ConstantAsMetadata::get(
      ConstantInt::get(Type::getInt32Ty(C), NumValues))};
  for (const AbiStruct &S : All)
    Ops.push_back(encode(C, S));
  return MDNode::get(C, Ops);
}

SmallVector<AbiStruct, 4> structParams(const Function &F) {
  if (auto Kept = decodeAll(F.getMetadata(ParamsMD), F.arg_size()))
    return *Kept;
  return structParamsFromStores(F);
}

std::optional<AbiStruct> structValueAt(const CallBase &CB, unsigned OpNo) {
  if (auto Kept = decodeAll(CB.getMetadata(OperandsMD), CB.arg_size())) {
    for (const AbiStruct &S : *Kept)
      if (S.First == OpNo)
        return S;
    return std::nullopt;
  }
  return structValueFromLoads(CB, OpNo);
}

void recordStructParams(Function &F) {
  if (F.isDeclaration() || F.hasMetadata(ParamsMD))
    return;
  SmallVector<AbiStruct, 4> All = structParamsFromStores(F);
  if (All.empty())
    return;
  MDNode *Params = encodeAll(F.getContext(), All, F.arg_size());
  F.setMetadata(ParamsMD, Params);
  // The IR printer defines the struct types that instructions, globals and
  // named metadata use, not those only a function's own metadata names:
  // without this, -S -emit-llvm output names a type it never defines, and
  // opt, llc and lli cannot read it (probe45b F3).
  F.getParent()->getOrInsertNamedMetadata(TypesMD)->addOperand(Params);
}

void recordStructOperands(CallBase &CB, unsigned FirstOperand) {
  if (CB.hasMetadata(OperandsMD))
    return;
  SmallVector<AbiStruct, 4> All;
  for (unsigned Op = FirstOperand; Op < CB.arg_size(); ++Op)
    if (std::optional<AbiStruct> S = structValueFromLoads(CB, Op)) {
      All.push_back(*S);
      Op += S->Count - 1;
    }
  // Recorded even when there is none: link time then knows the grouping
  // was looked for (structOperandsRecorded).
  CB.setMetadata(OperandsMD, encodeAll(CB.getContext(), All, CB.arg_size()));
}

bool structParamsRecorded(const Function &F) {
  return decodeAll(F.getMetadata(ParamsMD), F.arg_size()).has_value();
}

bool structOperandsRecorded(const CallBase &CB) {
  return decodeAll(CB.getMetadata(OperandsMD), CB.arg_size()).has_value();
}

} // namespace tapestry
