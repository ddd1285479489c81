//===- StructArguments.h - Structs as the C ABI passes them -----*- C++ -*-===//
//
// On x86-64 (SysV) clang passes a small struct by value as one to four IR
// values ("pieces": struct {double x, y;} becomes two doubles, {float a, b}
// one <2 x float>, {double d; int i;} a double and an i32) and a larger one
// in memory (a `byval` pointer). Enzyme's markers apply to those pieces,
// which is what its users' programs rely on; the source-level spelling
// (`enzyme_dup, v, dv` with v and dv both structs) only lines up with them
// when the struct is a single piece.
//
// This file recovers the source-level grouping from the IR clang emits
// before any optimisation: a callee stores its pieces into the local that
// holds the parameter (through a GEP of the coerced literal struct type),
// and a caller loads the pieces of one struct value from one address the
// same way. Debug info, when present, names the parameter and its type.
// Optimisation removes both patterns, so the plugin keeps what it found in
// metadata when it first sees a module (recordStructParams).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_STRUCTARGUMENTS_H
#define TAPESTRY_PASSES_STRUCTARGUMENTS_H

#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace llvm {
class CallBase;
class Function;
class Type;
} // namespace llvm

namespace tapestry {

/// One struct passed by value: \p Count consecutive IR parameters (or call
/// operands) from \p First on, or one byval pointer.
struct AbiStruct {
  unsigned First = 0;
  unsigned Count = 0;
  bool ByVal = false;
  /// The struct as the program declares it (its IR type), or null.
  llvm::Type *Ty = nullptr;
  /// The source names of the parameter or variable and of its type, or "".
  std::string Name;
  std::string TypeName;
  /// Source names of the members, in order, when debug info has them.
  llvm::SmallVector<std::string, 4> Members;
  /// A member of floating-point type that an integer piece carries (the
  /// ABI packed it with an integer member), or "" (or "?" if unnamed).
  std::string HiddenFloat;

  /// "struct V2 'v'" or "a struct", for messages.
  std::string describe() const;
};

/// Keeps in metadata the struct parameters of \p F (unoptimised IR, where
/// the pattern above shows them), so that structParams still knows them
/// once optimisation has removed the pattern: at link time under -flto,
/// or in the opt flow from IR compiled with the plugin. Does nothing if F
/// has no struct parameter or has the metadata already.
void recordStructParams(llvm::Function &F);
/// The same for the struct values request \p CB passes from operand
/// \p FirstOperand on (structValueAt).
void recordStructOperands(llvm::CallBase &CB, unsigned FirstOperand);

/// True if \p F's struct parameters, or the struct values request \p CB
/// passes, were recorded when their file was compiled with the plugin.
bool structParamsRecorded(const llvm::Function &F);
bool structOperandsRecorded(const llvm::CallBase &CB);

/// The parameters of \p F that are structs passed by value, in order: those
/// split into two or more pieces, those passed in memory (byval) and those
/// passed as one piece of another type (e.g. {float, float} as <2 x float>).
llvm::SmallVector<AbiStruct, 4> structParams(const llvm::Function &F);

/// The struct value whose first piece is operand \p OpNo of \p CB, if the
/// call passes one there (two or more pieces loaded from one address, or a
/// byval operand).
std::optional<AbiStruct> structValueAt(const llvm::CallBase &CB, unsigned OpNo);

} // namespace tapestry

#endif // TAPESTRY_PASSES_STRUCTARGUMENTS_H
