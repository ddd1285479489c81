//===- SourceTypes.h - Source-level types and names -------------*- C++ -*-===//
//
// Messages and explanations speak the user's language: `const double *`,
// `struct Vec3`, the parameter's name. Debug information (-g) has both; a
// module without it falls back to a rendering of the IR type.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_SOURCETYPES_H
#define TAPESTRY_CORE_SOURCETYPES_H

#include <string>

namespace llvm {
class DIType;
class Function;
} // namespace llvm

namespace tapestry {

/// \p T as C or C++ writes it: "const double *", "struct Vec3", "int[4]".
std::string sourceTypeName(const llvm::DIType *T);

/// Parameter \p ArgNo (from 0) of \p F as its source declares it.
struct SourceParameter {
  std::string Name; ///< empty without debug info
  std::string Type; ///< the IR type when there is no debug info
};
SourceParameter sourceParameter(const llvm::Function &F, unsigned ArgNo);

/// \p F's return type as its source declares it ("void", "double", ...).
std::string sourceReturnType(const llvm::Function &F);

/// \p F's address as advice to paste into C or C++ source: "(void*)f", or
/// for a C++ function, which may be overloaded, cast to its exact type
/// first: "(void*)(double (*)(double, int))ns::f".
std::string functionPointerText(const llvm::Function &F);

} // namespace tapestry

#endif // TAPESTRY_CORE_SOURCETYPES_H
