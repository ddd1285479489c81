//===- DeclaredShadows.h - Shadows of globals the program names -*- C++ -*-===//
//
// Enzyme's __attribute__((enzyme_shadow(s))) on a global g (its clang
// plugin's !enzyme_shadow) names the global s, of g's type, as g's shadow:
// reverse mode adds g's adjoint to s and forward mode reads g's tangent
// from s, where the program seeds and reads them; no request zeroes s.
// Core/CustomRules.cpp reads the registration the clang part emits and
// records it on g here, as Enzyme does with metadata, so that
// Analysis/GlobalShadows.h uses s instead of making an implicit shadow.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_DECLAREDSHADOWS_H
#define TAPESTRY_CORE_DECLAREDSHADOWS_H

namespace llvm {
class GlobalVariable;
} // namespace llvm

namespace tapestry {

/// Records that \p Shadow is \p G's shadow.
void declareShadow(llvm::GlobalVariable &G, llvm::GlobalVariable &Shadow);

/// The shadow the program declared for \p G, or null.
llvm::GlobalVariable *declaredShadowOf(const llvm::GlobalVariable &G);

} // namespace tapestry

#endif // TAPESTRY_CORE_DECLAREDSHADOWS_H
