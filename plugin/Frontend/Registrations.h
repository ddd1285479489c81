//===- Registrations.h - Attributes as registration globals -----*- C++ -*-===//
//
// At the end of a translation unit, every declaration that carries one of
// Enzyme's annotations (EnzymeAttributes.h) and that this unit defines or
// uses gets a registration global, emitted through clang's code generator
// like any other global:
//
//   static void *__enzyme_<kind>_autoreg_<name>[] = {(void *)&decl, ...};
//
// internal (so that two units never clash) and marked used, under exactly
// that name in C and C++ alike. The pass reads it (Core/CustomRules.h).
// Templates are registered per instantiation.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_FRONTEND_REGISTRATIONS_H
#define TAPESTRY_FRONTEND_REGISTRATIONS_H

namespace clang {
class ASTContext;
class Sema;
} // namespace clang

namespace tapestry {

/// Emits the registration globals of the translation unit \p Ctx through
/// \p S's AST consumer (code generation).
void emitRegistrations(clang::Sema &S, clang::ASTContext &Ctx);

} // namespace tapestry

#endif // TAPESTRY_FRONTEND_REGISTRATIONS_H
