//===- Registrations.cpp - Enzyme's attributes as registration globals ----===//
//
// Implements Registrations.h: emitRegistrations walks the translation unit
// (template instantiations included) with a RecursiveASTVisitor, and for each
// function or global carrying one of Enzyme's annotations that the unit defines
// or uses, builds the internal __enzyme_<kind>_autoreg_<name> array with an asm
// label fixing its name, reports what cannot be registered (constructors,
// destructors, thread-locals, references) as a clang error, and hands the new
// globals to the code generator after the walk.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Registrations.h"

#include "Frontend/EnzymeAttributes.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclGroup.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/StringSet.h"
#include <set>

using namespace clang;
using llvm::StringRef;

namespace {

class RegistrationEmitter : public RecursiveASTVisitor<RegistrationEmitter> {
public:
  RegistrationEmitter(Sema &S, ASTContext &Ctx) : S(S), Ctx(Ctx) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    consider(*FD);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->hasGlobalStorage())
      consider(*VD);
    return true;
  }

  /// The registrations found, emitted after the traversal (emitting adds
  /// declarations to the translation unit being traversed).
  void emit() {
    for (VarDecl *V : Pending) {
      Ctx.getTranslationUnitDecl()->addDecl(V);
      S.getASTConsumer().HandleTopLevelDecl(DeclGroupRef(V));
    }
  }

private:
  void consider(ValueDecl &D) {
    for (const auto *A : D.specific_attrs<AnnotateAttr>()) {
      StringRef Extra;
      StringRef Kind = tapestry::registrationKind(A->getAnnotation(), D, Extra);
      if (Kind.empty() || !needsRegistration(D))
        continue;
      if (!Done.insert({D.getCanonicalDecl(), A->getAnnotation().str()}).second)
        continue;
      if (isa<CXXConstructorDecl>(D) || isa<CXXDestructorDecl>(D) ||
          (isa<VarDecl>(D) &&
           cast<VarDecl>(D).getTLSKind() != VarDecl::TLS_None) ||
          D.getType()->isReferenceType()) {
        error(A->getLocation(),
              "Tapestry cannot register a constructor, a destructor, a "
              "thread-local variable or a reference with Enzyme's "
              "attributes; put the attribute on a function or a global "
              "variable");
        continue;
      }
      Pending.push_back(makeRegistration(D, Kind, Extra, A->getLocation()));
    }
  }

  /// Registered if this unit defines or uses it (a declaration nobody uses
  /// may be defined nowhere: referring to it would not link). Templates are
  /// registered per instantiation, where they have an address.
  static bool needsRegistration(const ValueDecl &D) {
    if (D.getDeclContext()->isDependentContext())
      return false;
    if (const auto *FD = dyn_cast<FunctionDecl>(&D))
      return !FD->isDependentContext() && !FD->isDeleted() &&
             (FD->isDefined() || FD->isUsed(false));
    const auto &VD = cast<VarDecl>(D);
    return !VD.getType()->isDependentType() &&
           (VD.hasDefinition() != VarDecl::DeclarationOnly || VD.isUsed(false));
  }

  void error(SourceLocation Loc, StringRef Msg) {
    S.Diag(Loc,
           S.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error, "%0"))
        << Msg;
  }

  Expr *asVoidPointer(Expr *E) {
    return ImplicitCastExpr::Create(Ctx, Ctx.VoidPtrTy, CK_BitCast, E, nullptr,
                                    VK_PRValue, FPOptionsOverride());
  }

  /// (void *)&D: a function's or a global variable's address.
  Expr *addressOf(ValueDecl &D, SourceLocation Loc) {
    QualType PtrTy = Ctx.getPointerType(D.getType());
    auto *Ref = DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(), Loc, &D,
                                    /*RefersToEnclosingVariableOrCapture=*/
                                    false, Loc, D.getType(), VK_LValue);
    Expr *Ptr = isa<FunctionDecl>(D)
                    ? static_cast<Expr *>(ImplicitCastExpr::Create(
                          Ctx, PtrTy, CK_FunctionToPointerDecay, Ref, nullptr,
                          VK_PRValue, FPOptionsOverride()))
                    : UnaryOperator::Create(
                          Ctx, Ref, UO_AddrOf, PtrTy, VK_PRValue, OK_Ordinary,
                          Loc, /*CanOverflow=*/false, FPOptionsOverride());
    return asVoidPointer(Ptr);
  }

  /// (void *)"Text".
  Expr *addressOfString(StringRef Text, SourceLocation Loc) {
    QualType ArrTy = Ctx.getStringLiteralArrayType(Ctx.CharTy, Text.size());
    auto *Lit = StringLiteral::Create(Ctx, Text, StringLiteralKind::Ordinary,
                                      /*Pascal=*/false, ArrTy, Loc);
    QualType Elt = cast<ArrayType>(ArrTy.getTypePtr())->getElementType();
    return asVoidPointer(ImplicitCastExpr::Create(
        Ctx, Ctx.getPointerType(Elt), CK_ArrayToPointerDecay, Lit, nullptr,
        VK_PRValue, FPOptionsOverride()));
  }

  /// A unique symbol name __enzyme_<Kind>_autoreg_<D's name>.
  std::string symbolName(StringRef Kind, const ValueDecl &D) {
    std::string Base = ("__enzyme_" + Kind + "_autoreg_").str();
    for (char C : D.getNameAsString())
      Base += isAsciiIdentifierContinue(C) ? C : '_';
    std::string Name = Base;
    for (unsigned N = 1; !Names.insert(Name).second; ++N)
      Name = Base + "." + std::to_string(N);
    return Name;
  }

  VarDecl *makeRegistration(ValueDecl &D, StringRef Kind, StringRef Extra,
                            SourceLocation Loc) {
    SmallVector<Expr *, 2> Elts{addressOf(D, Loc)};
    if (!Extra.empty())
      Elts.push_back(addressOfString(Extra, Loc));
    // enzyme_shadow(s): {(void *)&g, (void *)&s}.
    if (Kind == "shadow_global")
      if (const VarDecl *Shadow = tapestry::declaredShadow(D))
        Elts.push_back(addressOf(*const_cast<VarDecl *>(Shadow), Loc));
    QualType ArrTy =
        Ctx.getConstantArrayType(Ctx.VoidPtrTy, llvm::APInt(32, Elts.size()),
                                 nullptr, ArraySizeModifier::Normal, 0);
    auto *Init = new (Ctx) InitListExpr(Ctx, Loc, Elts, Loc);
    Init->setType(ArrTy);
    std::string Name = symbolName(Kind, D);
    auto *V = VarDecl::Create(
        Ctx, Ctx.getTranslationUnitDecl(), Loc, Loc, &Ctx.Idents.get(Name),
        ArrTy, Ctx.getTrivialTypeSourceInfo(ArrTy, Loc), SC_Static);
    V->setInit(Init);
    V->setImplicit();
    V->addAttr(UsedAttr::CreateImplicit(Ctx));
    // Exactly this name in C++ too, where a static variable's is mangled.
    V->addAttr(AsmLabelAttr::CreateImplicit(Ctx, Name, /*LiteralLabel=*/false));
    return V;
  }

  Sema &S;
  ASTContext &Ctx;
  std::set<std::pair<const Decl *, std::string>> Done;
  llvm::StringSet<> Names;
  SmallVector<VarDecl *, 8> Pending;
};

} // namespace

namespace tapestry {

void emitRegistrations(Sema &S, ASTContext &Ctx) {
  if (S.getDiagnostics().hasErrorOccurred())
    return;
  RegistrationEmitter E(S, Ctx);
  E.TraverseDecl(Ctx.getTranslationUnitDecl());
  E.emit();
}

} // namespace tapestry
