//===- EnzymeAttributes.cpp - Enzyme's clang attributes -------------------===//
//
// Every attribute Enzyme's clang plugin registers, with its spellings
// (__attribute__((enzyme_x)), [[enzyme_x]], [[enzyme::x]]), what it applies
// to and the annotation it leaves, as Enzyme spells them:
//
//   enzyme_inactive            functions, globals  enzyme_inactivefn /
//                                                   enzyme_inactive
//   enzyme_inactive_noblock    functions, globals  enzyme_inactivenoblockfn /
//                                                   enzyme_inactive
//   enzyme_function_like("f")  functions           enzyme_function_like=f
//   enzyme_nofree              functions, globals  enzyme_nofree
//   enzyme_sparse_accumulate   functions           enzyme_sparse_accumulate
//   enzyme_shouldrecompute     functions, globals  enzyme_shouldrecompute
//   enzyme_elementwise_read    functions           enzyme_elementwise_read
//   enzyme_notypeanalysis      functions, globals  enzyme_ta_norecur
//   enzyme_no_escaping_allocation
//                              functions enzyme_no_escaping_allocation
//   enzyme_shadow(s)           globals             enzyme_shadow (s, another
//                                                   global of the same type,
//                                                   is the global's shadow)
//
//===----------------------------------------------------------------------===//
#include "Frontend/EnzymeAttributes.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/ParsedAttrInfo.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using llvm::StringRef;

namespace {

/// One of Enzyme's attributes.
struct EnzymeAttr {
  const char *Name;
  llvm::ArrayRef<ParsedAttrInfo::Spelling> Spellings;
  /// Applies to variables with static storage as well as functions.
  bool OnGlobals;
  /// Takes the name of a math function (enzyme_function_like).
  bool TakesName;
  const char *FnAnnotation;
  const char *VarAnnotation;
};

// __attribute__((enzyme_x)), [[enzyme_x]] and [[enzyme::x]] in C and C++.
// (clang 19 parses no arguments for a scoped plugin attribute: the one
// attribute with an argument is spelled enzyme_function_like("sin").)
#define ENZYME_SPELLINGS(NAME, SCOPED)                                         \
  {ParsedAttr::AS_GNU, NAME}, {ParsedAttr::AS_C23, NAME},                      \
      {ParsedAttr::AS_CXX11, NAME}, {ParsedAttr::AS_C23, SCOPED}, {            \
    ParsedAttr::AS_CXX11, SCOPED                                               \
  }

constexpr ParsedAttrInfo::Spelling InactiveSp[] = {
    ENZYME_SPELLINGS("enzyme_inactive", "enzyme::inactive")};
constexpr ParsedAttrInfo::Spelling InactiveNoblockSp[] = {
    ENZYME_SPELLINGS("enzyme_inactive_noblock", "enzyme::inactive_noblock")};
constexpr ParsedAttrInfo::Spelling FunctionLikeSp[] = {
    ENZYME_SPELLINGS("enzyme_function_like", "enzyme::function_like")};
constexpr ParsedAttrInfo::Spelling NoFreeSp[] = {
    ENZYME_SPELLINGS("enzyme_nofree", "enzyme::nofree")};
constexpr ParsedAttrInfo::Spelling SparseSp[] = {
    ENZYME_SPELLINGS("enzyme_sparse_accumulate", "enzyme::sparse_accumulate")};
constexpr ParsedAttrInfo::Spelling RecomputeSp[] = {
    ENZYME_SPELLINGS("enzyme_shouldrecompute", "enzyme::shouldrecompute")};
constexpr ParsedAttrInfo::Spelling ElementwiseSp[] = {
    ENZYME_SPELLINGS("enzyme_elementwise_read", "enzyme::elementwise_read")};
constexpr ParsedAttrInfo::Spelling NoTypeSp[] = {
    ENZYME_SPELLINGS("enzyme_notypeanalysis", "enzyme::notypeanalysis")};
constexpr ParsedAttrInfo::Spelling NoEscapingSp[] = {ENZYME_SPELLINGS(
    "enzyme_no_escaping_allocation", "enzyme::no_escaping_allocation")};

const EnzymeAttr Inactive{"enzyme_inactive",   InactiveSp,       true, false,
                          "enzyme_inactivefn", "enzyme_inactive"};
const EnzymeAttr InactiveNoblock{
    "enzyme_inactive_noblock",  InactiveNoblockSp, true, false,
    "enzyme_inactivenoblockfn", "enzyme_inactive"};
const EnzymeAttr FunctionLike{
    "enzyme_function_like",  FunctionLikeSp, false, true,
    "enzyme_function_like=", nullptr};
const EnzymeAttr NoFree{"enzyme_nofree", NoFreeSp,        true,
                        false,           "enzyme_nofree", "enzyme_nofree"};
const EnzymeAttr Sparse{"enzyme_sparse_accumulate", SparseSp, false, false,
                        "enzyme_sparse_accumulate", nullptr};
const EnzymeAttr Recompute{"enzyme_shouldrecompute",
                           RecomputeSp,
                           true,
                           false,
                           "enzyme_shouldrecompute",
                           "enzyme_shouldrecompute"};
const EnzymeAttr Elementwise{
    "enzyme_elementwise_read", ElementwiseSp, false, false,
    "enzyme_elementwise_read", nullptr};
const EnzymeAttr NoType{
    "enzyme_notypeanalysis", NoTypeSp,           true, false,
    "enzyme_ta_norecur",     "enzyme_ta_norecur"};
const EnzymeAttr NoEscaping{
    "enzyme_no_escaping_allocation", NoEscapingSp, false, false,
    "enzyme_no_escaping_allocation", nullptr};

bool isGlobal(const Decl *D) {
  const auto *VD = dyn_cast<VarDecl>(D);
  return VD && VD->hasGlobalStorage();
}

constexpr ParsedAttrInfo::Spelling ShadowSp[] = {
    ENZYME_SPELLINGS("enzyme_shadow", "enzyme::shadow")};

/// The shadows enzyme_shadow names, by the canonical declaration of the
/// global they belong to (the annotation carries no argument: an argument
/// that is not a constant expression cannot be emitted).
llvm::DenseMap<const Decl *, const VarDecl *> &declaredShadows() {
  static llvm::DenseMap<const Decl *, const VarDecl *> Shadows;
  return Shadows;
}

/// __attribute__((enzyme_shadow(s))) double g: the global s, of g's type,
/// is g's shadow (Enzyme's !enzyme_shadow), which reverse mode adds g's
/// adjoint to and forward mode reads g's tangent from.
struct ShadowAttrInfo : public ParsedAttrInfo {
  ShadowAttrInfo() {
    NumArgs = 1;
    Spellings = ShadowSp;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &Attr,
                            const Decl *D) const override {
    if (isGlobal(D))
      return true;
    S.Diag(Attr.getLoc(), diag::warn_attribute_wrong_decl_type_str)
        << Attr << Attr.isRegularKeywordAttribute() << "global variables";
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &Attr) const override {
    const VarDecl *Shadow = nullptr;
    if (Attr.getNumArgs() == 1 && Attr.isArgExpr(0)) {
      if (const auto *Ref = dyn_cast<DeclRefExpr>(
              Attr.getArgAsExpr(0)->IgnoreParenImpCasts()))
        Shadow = dyn_cast<VarDecl>(Ref->getDecl());
    } else if (Attr.getNumArgs() == 1 && Attr.isArgIdent(0)) {
      // A plain name is parsed as an identifier: looked up where the
      // attribute stands.
      IdentifierLoc *Id = Attr.getArgAsIdent(0);
      Shadow = dyn_cast_or_null<VarDecl>(S.LookupSingleName(
          S.getCurScope(), Id->Ident, Id->Loc, Sema::LookupOrdinaryName));
    }
    const auto *G = cast<VarDecl>(D);
    if (!Shadow || !Shadow->hasGlobalStorage() || Shadow == G ||
        !S.Context.hasSameType(Shadow->getType(), G->getType())) {
      S.Diag(Attr.getLoc(),
             S.getDiagnostics().getCustomDiagID(
                 DiagnosticsEngine::Error,
                 "'enzyme_shadow' takes another global variable of the "
                 "same type, the shadow, as in "
                 "__attribute__((enzyme_shadow(x_shadow))) double x"));
      return AttributeNotApplied;
    }
    declaredShadows()[G->getCanonicalDecl()] = Shadow;
    D->addAttr(AnnotateAttr::Create(S.Context, "enzyme_shadow", nullptr, 0,
                                    Attr.getRange()));
    return AttributeApplied;
  }
};

template <const EnzymeAttr &A> struct EnzymeAttrInfo : public ParsedAttrInfo {
  EnzymeAttrInfo() {
    NumArgs = A.TakesName ? 1 : 0;
    Spellings = A.Spellings;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &Attr,
                            const Decl *D) const override {
    if (isa<FunctionDecl>(D) || (A.OnGlobals && isGlobal(D)))
      return true;
    S.Diag(Attr.getLoc(), diag::warn_attribute_wrong_decl_type_str)
        << Attr << Attr.isRegularKeywordAttribute()
        << (A.OnGlobals ? "functions and global variables" : "functions");
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &Attr) const override {
    std::string Annotation =
        isa<FunctionDecl>(D) ? A.FnAnnotation : A.VarAnnotation;
    if (A.TakesName) {
      const auto *Lit = Attr.getNumArgs() == 1 && Attr.isArgExpr(0)
                            ? dyn_cast<StringLiteral>(
                                  Attr.getArgAsExpr(0)->IgnoreParenCasts())
                            : nullptr;
      if (!Lit || Lit->getString().empty()) {
        S.Diag(Attr.getLoc(),
               S.getDiagnostics().getCustomDiagID(
                   DiagnosticsEngine::Error,
                   "'%0' takes the name of the math function as a string "
                   "literal, as in %0(\"sin\")"))
            << A.Name;
        return AttributeNotApplied;
      }
      Annotation += Lit->getString();
    }
    D->addAttr(AnnotateAttr::Create(S.Context, Annotation, nullptr, 0,
                                    Attr.getRange()));
    return AttributeApplied;
  }
};

ParsedAttrInfoRegistry::Add<EnzymeAttrInfo<Inactive>> RegInactive(Inactive.Name,
                                                                  "");
ParsedAttrInfoRegistry::Add<EnzymeAttrInfo<InactiveNoblock>>
    RegInactiveNoblock(InactiveNoblock.Name, "");
ParsedAttrInfoRegistry::Add<EnzymeAttrInfo<FunctionLike>>
    RegFunctionLike(FunctionLike.Name, "");
ParsedAttrInfoRegistry::Add<EnzymeAttrInfo<NoFree>> RegNoFree(NoFree.Name, "");
ParsedAttrInfoRegistry::Add<EnzymeAttrInfo<Sparse>> RegSparse(Sparse.Name, "");
ParsedAttrInfoRegistry::Add<EnzymeAttrInfo<Recompute>>
    RegRecompute(Recompute.Name, "");
ParsedAttrInfoRegistry::Add<EnzymeAttrInfo<Elementwise>>
    RegElementwise(Elementwise.Name, "");
ParsedAttrInfoRegistry::Add<EnzymeAttrInfo<NoType>> RegNoType(NoType.Name, "");
ParsedAttrInfoRegistry::Add<EnzymeAttrInfo<NoEscaping>>
    RegNoEscaping(NoEscaping.Name, "");
ParsedAttrInfoRegistry::Add<ShadowAttrInfo> RegShadow("enzyme_shadow", "");

} // namespace

namespace tapestry {

StringRef registrationKind(StringRef Annotation, const Decl &D,
                           StringRef &Extra) {
  if (isa<FunctionDecl>(D)) {
    if (Annotation.consume_front("enzyme_function_like=")) {
      Extra = Annotation;
      return "function_like";
    }
    return llvm::StringSwitch<StringRef>(Annotation)
        .Cases("enzyme_inactivefn", "enzyme_inactive", "inactivefn")
        .Case("enzyme_inactivenoblockfn", "inactivenoblockfn")
        .Case("enzyme_nofree", "nofree")
        .Case("enzyme_sparse_accumulate", "sparse_accumulate")
        .Case("enzyme_shouldrecompute", "shouldrecompute")
        .Case("enzyme_elementwise_read", "elementwise_read")
        .Case("enzyme_ta_norecur", "notypeanalysis")
        .Case("enzyme_no_escaping_allocation", "no_escaping_allocation")
        .Default("");
  }
  if (isGlobal(&D))
    return llvm::StringSwitch<StringRef>(Annotation)
        .Case("enzyme_shadow", "shadow_global")
        .Case("enzyme_inactive", "inactive_global")
        .Case("enzyme_nofree", "nofree")
        .Case("enzyme_shouldrecompute", "shouldrecompute")
        .Case("enzyme_ta_norecur", "notypeanalysis")
        .Default("");
  return "";
}

const VarDecl *declaredShadow(const Decl &D) {
  return declaredShadows().lookup(D.getCanonicalDecl());
}

} // namespace tapestry
