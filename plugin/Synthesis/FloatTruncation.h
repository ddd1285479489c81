//===- FloatTruncation.h - A function in a narrower format ------*- C++ -*-===//
//
// Enzyme's floating-point truncation: a copy of a function whose arithmetic
// on one format (From, e.g. double) runs in a narrower one (To, e.g. float).
//
// Op mode: each floating-point operation on From values (arithmetic,
// comparison, conversion, math function) rounds its inputs to To, runs in
// To and extends its result back to From. Memory, arguments and results
// keep From values; loads, stores, phis and selects are unchanged.
//
// Mem mode: every From value the function handles (argument, result,
// memory, constant) is in the mem representation: the To value in the
// slot's first bytes, the rest zero (__enzyme_truncate_mem_value builds it,
// __enzyme_expand_mem_value reads it). Operations unpack their inputs, run
// in To and pack their result; constants (and constant globals holding From
// values) are packed; reinterpreting a From value's bits, mutable globals
// holding From values and calls that could see a packed value without
// knowing it are errors.
//
// Formats the target has no type for (say 5 exponent and 3 mantissa bits)
// are emulated (Synthesis/EmulatedRounding.h): a value of the format is
// a From value holding a number of the format, so To is From and the mem
// representation is the From value rounded; each operation is rounded
// once, correctly, to the format (math functions: computed in From on
// rounded inputs, their result rounded).
//
// Calls: math functions run their To variant (sinf, llvm.sin.f32; below
// float, the float variant rounded to To); functions with bodies that do
// From work are called as their own truncated copies; anything else that
// would compute on, or misread, From values is an error at its source line.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_FLOATTRUNCATION_H
#define TAPESTRY_SYNTHESIS_FLOATTRUNCATION_H

#include "Synthesis/EmulatedRounding.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace llvm {
class Function;
class IRBuilderBase;
class LLVMContext;
class TargetLibraryInfo;
class Type;
class Value;
} // namespace llvm

namespace tapestry {

enum class TruncationMode { Op, Mem };

struct Truncation {
  TruncationMode Mode;
  llvm::Type *From; ///< The wide format, e.g. double.
  llvm::Type *To;   ///< The narrow format, e.g. float; From if emulated.
  /// The format, when the target has no type for it (see above).
  std::optional<FloatLayout> Emulated = std::nullopt;
  /// "64to32" (or "64to16bf" for bfloat, "64toe5m3" emulated), for names.
  std::string tag() const;
  /// "float", or "the format with 5 exponent and 3 mantissa bits".
  std::string toName() const;
};

/// The IR type of an IEEE format given by its width in bits (64 double,
/// 32 float, 16 half), or null.
llvm::Type *floatTypeOfWidth(llvm::LLVMContext &Ctx, int64_t Bits);
/// The IR type of the format with \p Exponent and \p Mantissa bits if the
/// target has it natively (11/52 double, 8/23 float, 5/10 half, 8/7
/// bfloat), or null.
llvm::Type *floatTypeOfLayout(llvm::LLVMContext &Ctx, int64_t Exponent,
                              int64_t Mantissa);
/// "double", "float", "half" or "bfloat".
std::string formatName(const llvm::Type *T);

using TLIGetter =
    llvm::function_ref<const llvm::TargetLibraryInfo &(llvm::Function &)>;

/// The truncated copy of \p F (made once per module and reused), or null
/// after reporting every construct it cannot truncate as an error at its
/// source line. \p Entry names the entry point for messages.
llvm::Function *truncatedFunction(llvm::Function &F, const Truncation &T,
                                  llvm::StringRef Entry, TLIGetter GetTLI);

/// Op mode on \p F itself, calls to other functions unchanged (they are
/// truncated too): Enzyme's -enzyme-truncate-all. False after errors.
bool truncateInPlace(llvm::Function &F, const Truncation &T, TLIGetter GetTLI);

/// \p V (a From value) in the mem representation of \p T.
llvm::Value *toMemRepresentation(llvm::IRBuilderBase &B, llvm::Value *V,
                                 const Truncation &T);
/// The From value of \p V, a value in the mem representation of \p T.
llvm::Value *fromMemRepresentation(llvm::IRBuilderBase &B, llvm::Value *V,
                                   const Truncation &T);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_FLOATTRUNCATION_H
