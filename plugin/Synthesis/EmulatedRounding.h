//===- EmulatedRounding.h - Formats the target has no type for --*- C++ -*-===//
//
// Enzyme's truncation to a format given by its exponent and mantissa bits
// that the target has no type for (Enzyme emulates these with MPFR). A
// value of such a format is carried in the FROM type (double, float or
// half) holding exactly that number; the format is IEEE-like: bias
// 2^(E-1)-1, subnormals, infinities, NaN, round to nearest even.
//
// Each operation is rounded once, correctly, to the format: the FROM (for
// half, float) result of +, -, *, /, sqrt and fma is completed by its exact
// error (TwoSum, Dekker's product, the remainder of a division or square
// root, computed on operands scaled near 1), made round-to-odd at that
// precision and then rounded to the format, which is exact when the
// format has at most FROM's mantissa bits minus 2.
//
// The rounding runs in small internal functions synthesised in the module
// (named __tapestry_fpround.*) that return the correction to add to the
// FROM result. They are known to be inactive (Core/KnownInactive.h): a
// derivative of `plain + correction` is that of the plain operation.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_EMULATEDROUNDING_H
#define TAPESTRY_SYNTHESIS_EMULATEDROUNDING_H

#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <string>

namespace llvm {
class Constant;
class Function;
class IRBuilderBase;
class Type;
class Value;
} // namespace llvm

namespace tapestry {

/// A binary floating-point format by its exponent and mantissa bits.
struct FloatLayout {
  int Exponent = 0;
  int Mantissa = 0; ///< Without the hidden bit.
};

/// The operations rounded correctly to an emulated format.
enum class EmulatedOp { Add, Sub, Mul, Div, Sqrt, FMA };

/// Why \p L cannot be emulated with \p From values, or "".
std::string emulationError(llvm::Type *From, FloatLayout L);

/// "e5m10": for names.
std::string layoutTag(FloatLayout L);

/// \p X, a FROM value (or vector), rounded to \p L.
llvm::Value *roundToLayout(llvm::IRBuilderBase &B, llvm::Value *X,
                           FloatLayout L);

/// \p Op on \p Args (FROM values of \p L) rounded once to \p L.
llvm::Value *emulateOperation(llvm::IRBuilderBase &B, EmulatedOp Op,
                              llvm::ArrayRef<llvm::Value *> Args,
                              FloatLayout L);

/// The integer \p I (at most 64 bits) converted to \p Dest (FROM) and
/// rounded once to \p L.
llvm::Value *emulateIntToFP(llvm::IRBuilderBase &B, llvm::Value *I, bool Signed,
                            llvm::Type *Dest, FloatLayout L);

/// The FROM constant \p C (scalar or vector) rounded to \p L, or null.
llvm::Constant *roundConstantToLayout(llvm::Constant *C, FloatLayout L);

/// True for the functions this file synthesises.
bool isEmulationHelper(const llvm::Function &F);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_EMULATEDROUNDING_H
