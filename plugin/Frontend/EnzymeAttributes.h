//===- EnzymeAttributes.h - Enzyme's clang attributes -----------*- C++ -*-===//
//
// Enzyme's clang attributes (enzyme_inactive, enzyme_function_like("sin"),
// enzyme_nofree, enzyme_sparse_accumulate, ...) are registered with clang
// when the plugin is loaded with -fplugin. Each leaves on its declaration
// the annotation Enzyme's own clang plugin leaves (clang's annotate
// attribute, which template instantiation and redeclarations carry along);
// at the end of the translation unit, Registrations.cpp turns every
// annotated declaration into the registration global the pass reads
// (Core/CustomRules.h).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_FRONTEND_ENZYMEATTRIBUTES_H
#define TAPESTRY_FRONTEND_ENZYMEATTRIBUTES_H

#include "llvm/ADT/StringRef.h"

namespace clang {
class Decl;
class VarDecl;
} // namespace clang

namespace tapestry {

/// What an annotation on \p D registers: the kind of its registration global
/// (__enzyme_<kind>_autoreg_<name>, "inactivefn", "function_like", ...) and,
/// for enzyme_function_like, the math function's name in \p Extra. Returns
/// an empty kind for annotations that are not Enzyme's.
llvm::StringRef registrationKind(llvm::StringRef Annotation,
                                 const clang::Decl &D, llvm::StringRef &Extra);

/// The global __attribute__((enzyme_shadow(S))) on \p D names as its
/// shadow, or null.
const clang::VarDecl *declaredShadow(const clang::Decl &D);

} // namespace tapestry

#endif // TAPESTRY_FRONTEND_ENZYMEATTRIBUTES_H
