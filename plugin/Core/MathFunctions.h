//===- MathFunctions.h - Which calls are math functions ---------*- C++ -*-===//
//
// Which calls are math functions of the rules table (DerivativeRules.def),
// by intrinsic or by C library name, without building any derivative: the
// analyses need only to know that a call is one, Synthesis builds the
// partial derivatives (Synthesis/DerivativeRules.h).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_MATHFUNCTIONS_H
#define TAPESTRY_CORE_MATHFUNCTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Intrinsics.h"

namespace llvm {
class CallBase;
} // namespace llvm

namespace tapestry {

struct MathFunction {
  const char *Name;
  unsigned NumOperands;
  llvm::Intrinsic::ID IID;
  /// Library base name ("sin"), or "" for intrinsic-only entries.
  const char *LibName;
};

/// Every math function of the table, in table order.
llvm::ArrayRef<MathFunction> mathFunctions();
/// The entry for a library name ("sinf" -> sin), or null.
const MathFunction *findMathLibraryFunction(llvm::StringRef Name);
/// A vector function ABI name (_ZGVdN4v_sin: the vector variant of sin on 4
/// lanes, as -fveclib=libmvec has the loop vectoriser call it), taken apart.
struct VectorVariant {
  llvm::StringRef ScalarName;
  unsigned Lanes = 0;
  unsigned NumParams = 0;
  /// The variant takes a mask after its parameters.
  bool Masked = false;
  explicit operator bool() const { return Lanes != 0; }
};
/// \p Name taken apart if it is a vector function ABI name; empty otherwise.
VectorVariant parseVectorVariant(llvm::StringRef Name);
/// True if a function of type \p FT has the shape of math function \p M:
/// its floating-point parameters of the return type (ldexp's second an
/// integer, frexp's a pointer, ...), not variadic.
bool hasMathSignature(llvm::FunctionType &FT, const MathFunction &M);
/// The entry a call to an intrinsic or library function matches (with the
/// expected signature), or null. Vector variants of library functions
/// (_ZGVdN4v_sin) match their scalar function's entry.
const MathFunction *findMathFunction(const llvm::CallBase &CB);
/// True for a math call that stores through a pointer argument (frexp's
/// exponent, modf's integer part) besides setting errno: it is not dropped
/// when its result is unused, and it counts as a write to that memory.
bool mathWritesMemory(const llvm::CallBase &CB);

} // namespace tapestry

#endif // TAPESTRY_CORE_MATHFUNCTIONS_H
