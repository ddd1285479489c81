//===- CopyTypes.cpp - What each aggregate copy moves, from the AST -------===//
//
// Implements CopyTypes.h: a RecursiveASTVisitor over every function body the
// unit defines (template instantiations included) collects the expressions
// clang lowers to a memcpy — trivial copy and move constructors and
// assignments, C struct assignments and lvalue-to-rvalue copies, and calls
// of memcpy and memmove given typed pointers — and describes the copied
// type's scalars from the record layouts clang itself uses.
//
//===----------------------------------------------------------------------===//
#include "Frontend/CopyTypes.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclGroup.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace clang;

namespace {

/// Scalars described per copied object at most: a larger type (a big
/// array member) is left to the pass's own analysis.
constexpr unsigned MaxScalars = 512;

/// The scalars of a type, as offset:kind pairs (CopyTypes.h).
class ScalarLayout {
public:
  explicit ScalarLayout(ASTContext &Ctx) : Ctx(Ctx) {}

  /// False if some part of \p T cannot be described (a union, a virtual
  /// base, an unknown kind of type, too many scalars).
  bool describe(QualType T, uint64_t Offset) {
    T = Ctx.getCanonicalType(T).getUnqualifiedType();
    const Type *Ty = T.getTypePtr();
    if (const auto *AT = dyn_cast<AtomicType>(Ty))
      return Ctx.getTypeSize(AT->getValueType()) == Ctx.getTypeSize(T) &&
             describe(AT->getValueType(), Offset);
    if (Ty->isRealFloatingType())
      return add(Offset, floatKind(T));
    if (Ty->isAnyPointerType() || Ty->isReferenceType() ||
        Ty->isBlockPointerType() || Ty->isNullPtrType())
      return add(Offset, "p");
    if (Ty->isIntegralOrEnumerationType())
      return add(Offset, "i" + std::to_string(Ctx.getTypeSize(T)));
    if (Ty->isMemberPointerType()) {
      for (uint64_t B = 0; B < Ctx.getTypeSize(T); B += 64)
        if (!add(Offset + B / 8, "i64"))
          return false;
      return true;
    }
    if (const auto *CT = dyn_cast<ComplexType>(Ty)) {
      uint64_t Half =
          Ctx.getTypeSizeInChars(CT->getElementType()).getQuantity();
      return describe(CT->getElementType(), Offset) &&
             describe(CT->getElementType(), Offset + Half);
    }
    if (const auto *VT = dyn_cast<VectorType>(Ty))
      return repeat(VT->getElementType(), VT->getNumElements(), Offset);
    if (const auto *AT = Ctx.getAsConstantArrayType(T))
      return repeat(AT->getElementType(), AT->getZExtSize(), Offset);
    if (const auto *RT = dyn_cast<RecordType>(Ty))
      return describeRecord(*RT->getDecl(), Offset);
    return false;
  }

  /// Whether the description holds a value whose copy a derivative must
  /// follow: a floating-point value or a pointer.
  bool mattersToDerivatives() const {
    for (const auto &S : Scalars)
      if (S.second[0] != 'i')
        return true;
    return false;
  }

  std::string text() const {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    for (size_t I = 0; I < Scalars.size(); ++I)
      OS << (I ? "," : "") << Scalars[I].first << ':' << Scalars[I].second;
    return Out;
  }

private:
  std::string floatKind(QualType T) const {
    const llvm::fltSemantics &S = Ctx.getFloatTypeSemantics(T);
    if (&S == &llvm::APFloat::IEEEsingle())
      return "f";
    if (&S == &llvm::APFloat::IEEEdouble())
      return "d";
    if (&S == &llvm::APFloat::x87DoubleExtended())
      return "x";
    if (&S == &llvm::APFloat::IEEEquad())
      return "q";
    if (&S == &llvm::APFloat::IEEEhalf())
      return "h";
    if (&S == &llvm::APFloat::BFloat())
      return "b";
    return "";
  }

  bool add(uint64_t Offset, std::string Kind) {
    if (Kind.empty() || Scalars.size() >= MaxScalars)
      return false;
    Scalars.emplace_back(Offset, std::move(Kind));
    return true;
  }

  bool repeat(QualType Elt, uint64_t N, uint64_t Offset) {
    uint64_t Size = Ctx.getTypeSizeInChars(Elt).getQuantity();
    for (uint64_t I = 0; I < N; ++I)
      if (!describe(Elt, Offset + I * Size))
        return false;
    return true;
  }

  bool describeRecord(const RecordDecl &R, uint64_t Offset) {
    const RecordDecl *RD = R.getDefinition();
    if (!RD || RD->isUnion() || RD->isInvalidDecl())
      return false;
    const ASTRecordLayout &L = Ctx.getASTRecordLayout(RD);
    if (const auto *CRD = dyn_cast<CXXRecordDecl>(RD)) {
      if (CRD->getNumVBases())
        return false;
      if (CRD->isDynamicClass() && !L.getPrimaryBase() && !add(Offset, "p"))
        return false;
      for (const CXXBaseSpecifier &B : CRD->bases()) {
        const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl();
        if (!Base ||
            !describe(B.getType(),
                      Offset + L.getBaseClassOffset(Base).getQuantity()))
          return false;
      }
    }
    for (const FieldDecl *F : RD->fields()) {
      uint64_t Bits = L.getFieldOffset(F->getFieldIndex());
      if (F->isBitField()) {
        // The bytes a bit-field's bits fall in (neighbours share bytes).
        unsigned Width = F->getBitWidthValue(Ctx);
        for (uint64_t B = Bits / 8; Width && B < (Bits + Width + 7) / 8; ++B)
          if (BitFieldBytes.insert(Offset + B).second && !add(Offset + B, "i8"))
            return false;
        continue;
      }
      if (F->isZeroSize(Ctx))
        continue;
      if (!describe(F->getType(), Offset + Bits / 8))
        return false;
    }
    return true;
  }

  ASTContext &Ctx;
  std::vector<std::pair<uint64_t, std::string>> Scalars;
  std::set<uint64_t> BitFieldBytes;
};

class CopyCollector : public RecursiveASTVisitor<CopyCollector> {
public:
  explicit CopyCollector(ASTContext &Ctx)
      : Ctx(Ctx), SM(Ctx.getSourceManager()),
        Mangler(Ctx.createMangleContext()) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  /// The copies in a function body are the function's.
  bool TraverseDecl(Decl *D) {
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (!FD || !FD->doesThisDeclarationHaveABody())
      return RecursiveASTVisitor::TraverseDecl(D);
    if (FD->isDependentContext())
      return true;
    Functions.push_back(FD);
    bool Result = RecursiveASTVisitor::TraverseDecl(D);
    Functions.pop_back();
    return Result;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    const CXXConstructorDecl *C = E->getConstructor();
    if (C && C->isCopyOrMoveConstructor() && C->isTrivial())
      note(*E, E->getType(), /*Strided=*/false);
    return true;
  }

  bool VisitCallExpr(CallExpr *E) {
    const FunctionDecl *FD = E->getDirectCallee();
    if (!FD)
      return true;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
      if ((MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()) &&
          MD->isTrivial())
        note(*E, Ctx.getRecordType(MD->getParent()), /*Strided=*/false);
      return true;
    }
    switch (FD->getBuiltinID()) {
    case Builtin::BImemcpy:
    case Builtin::BImemmove:
    case Builtin::BImempcpy:
    case Builtin::BI__builtin_memcpy:
    case Builtin::BI__builtin_memmove:
    case Builtin::BI__builtin_mempcpy:
    case Builtin::BI__builtin_memcpy_inline:
      if (E->getNumArgs() >= 2)
        noteTypedCopy(*E);
      return true;
    default:
      return true;
    }
  }

  /// C: `a = b` and the lvalue-to-rvalue copy of a struct (initialisation,
  /// an argument, a return).
  bool VisitBinaryOperator(BinaryOperator *E) {
    if (E->getOpcode() == BO_Assign && E->getType()->isRecordType())
      note(*E, E->getType(), /*Strided=*/false);
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *E) {
    if (E->getCastKind() == CK_LValueToRValue && E->getType()->isRecordType())
      note(*E, E->getType(), /*Strided=*/false);
    return true;
  }

  std::string table() const {
    std::string Out;
    for (const std::string &E : Entries)
      Out += E + "\n";
    return Out;
  }

private:
  /// memcpy(dst, src, n): the pointers' types before their conversion to
  /// void *, when both agree (n may cover an array of them).
  void noteTypedCopy(CallExpr &E) {
    QualType Dst = pointee(E.getArg(0)), Src = pointee(E.getArg(1));
    if (Dst.isNull() && Src.isNull())
      return;
    if (!Dst.isNull() && !Src.isNull() &&
        !Ctx.hasSameUnqualifiedType(Ctx.getCanonicalType(Dst),
                                    Ctx.getCanonicalType(Src)))
      return;
    note(E, Dst.isNull() ? Src : Dst, /*Strided=*/true);
  }

  QualType pointee(const Expr *Arg) const {
    QualType T = Arg->IgnoreParenCasts()->getType();
    if (const ArrayType *AT = Ctx.getAsArrayType(T))
      return AT->getElementType();
    if (T->isPointerType() && !T->isVoidPointerType())
      return T->getPointeeType();
    return QualType();
  }

  void note(const Expr &E, QualType T, bool Strided) {
    if (Functions.empty() || T.isNull() || T->isDependentType() ||
        T->isIncompleteType() || !T->isConstantSizeType())
      return;
    ScalarLayout Layout(Ctx);
    if (!Layout.describe(T, 0) || !Layout.mattersToDerivatives())
      return;
    PresumedLoc Begin = SM.getPresumedLoc(E.getBeginLoc());
    PresumedLoc End = SM.getPresumedLoc(E.getEndLoc());
    if (Begin.isInvalid() || End.isInvalid())
      return;
    uint64_t Size = Ctx.getTypeSizeInChars(T).getQuantity();
    std::string Entry;
    llvm::raw_string_ostream OS(Entry);
    std::string &Fn = Names[Functions.back()];
    if (Fn.empty())
      Fn = symbolNames(*Functions.back());
    OS << Fn << '\t' << Begin.getFilename() << '\t' << Begin.getLine() << ':'
       << Begin.getColumn() << '\t' << End.getLine() << ':' << End.getColumn()
       << '\t' << (Strided ? Size : 0) << '\t' << Size << '\t' << Layout.text();
    if (Seen.insert(Entry).second)
      Entries.push_back(Entry);
  }

  /// The names the code generator gives \p FD's definitions, ';'-separated
  /// (a constructor or destructor has a complete and a base variant).
  std::string symbolNames(const FunctionDecl &FD) {
    SmallVector<GlobalDecl, 2> Decls;
    if (const auto *C = dyn_cast<CXXConstructorDecl>(&FD))
      Decls = {GlobalDecl(C, Ctor_Complete), GlobalDecl(C, Ctor_Base)};
    else if (const auto *D = dyn_cast<CXXDestructorDecl>(&FD))
      Decls = {GlobalDecl(D, Dtor_Complete), GlobalDecl(D, Dtor_Base)};
    else
      Decls = {GlobalDecl(&FD)};
    std::string Out;
    for (GlobalDecl GD : Decls) {
      std::string Name;
      llvm::raw_string_ostream OS(Name);
      if (Mangler->shouldMangleDeclName(&FD))
        Mangler->mangleName(GD, OS);
      else if (FD.getIdentifier())
        OS << FD.getName();
      StringRef N(Name);
      N.consume_front("\01");
      if (!N.empty())
        Out += (Out.empty() ? "" : ";") + N.str();
    }
    return Out;
  }

  ASTContext &Ctx;
  SourceManager &SM;
  std::unique_ptr<MangleContext> Mangler;
  SmallVector<const FunctionDecl *, 4> Functions;
  llvm::DenseMap<const FunctionDecl *, std::string> Names;
  llvm::StringSet<> Seen;
  std::vector<std::string> Entries;
};

} // namespace

namespace tapestry {

void emitCopyTypes(Sema &S, ASTContext &Ctx) {
  if (S.getDiagnostics().hasErrorOccurred())
    return;
  CopyCollector C(Ctx);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  // Emitted even empty: the pass then knows the front end described the
  // unit's copies.
  std::string Table = C.table();
  SourceLocation Loc = Ctx.getSourceManager().getLocForStartOfFile(
      Ctx.getSourceManager().getMainFileID());
  QualType ArrTy = Ctx.getStringLiteralArrayType(Ctx.CharTy, Table.size());
  auto *Init = StringLiteral::Create(Ctx, Table, StringLiteralKind::Ordinary,
                                     /*Pascal=*/false, ArrTy, Loc);
  const char *Name = "__tapestry_copy_types";
  auto *V = VarDecl::Create(
      Ctx, Ctx.getTranslationUnitDecl(), Loc, Loc, &Ctx.Idents.get(Name), ArrTy,
      Ctx.getTrivialTypeSourceInfo(ArrTy, Loc), SC_Static);
  V->setInit(Init);
  V->setImplicit();
  V->addAttr(UsedAttr::CreateImplicit(Ctx));
  V->addAttr(AsmLabelAttr::CreateImplicit(Ctx, Name, /*LiteralLabel=*/false));
  Ctx.getTranslationUnitDecl()->addDecl(V);
  S.getASTConsumer().HandleTopLevelDecl(DeclGroupRef(V));
}

} // namespace tapestry
