//===- TruncateRequest.h - Enzyme's floating-point truncation ---*- C++ -*-===//
//
// Enzyme's entry points for computing in a narrower floating-point format
// (Synthesis/FloatTruncation.h says what each mode computes):
//
//   __enzyme_truncate_op_func(f, FROM, TO)    f computed in op mode
//   __enzyme_truncate_mem_func(f, FROM, TO)   f computed in mem mode
//   __enzyme_truncate_mem_value(v, FROM, TO)  v in mem representation
//   __enzyme_expand_mem_value(v, FROM, TO)    v back from it
//
// FROM and TO are widths in bits (64 double, 32 float, 16 half); TO may
// instead be given as EXPONENT, MANTISSA bits (f, FROM, E, M): the formats
// the target has (8, 7 is bfloat) use its types, the others (which Enzyme
// emulates with MPFR) are emulated with correct rounding
// (Synthesis/EmulatedRounding.h) when 2 <= E <= FROM's exponent bits and
// 1 <= M <= FROM's mantissa bits - 2. -enzyme-truncate-all= "64to32" (or
// "11-52to8-23", "64to5-3") runs every function of the module in op mode.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_TRUNCATEREQUEST_H
#define TAPESTRY_PASSES_TRUNCATEREQUEST_H

#include "Synthesis/FloatTruncation.h"

namespace llvm {
class CallBase;
class Module;
} // namespace llvm

namespace tapestry {

/// Replaces the truncation call \p CB by its result; reports an error at
/// the call (and leaves it) if it is malformed or cannot be honoured.
bool lowerTruncateRequest(llvm::CallBase &CB, TLIGetter GetTLI);

/// -enzyme-truncate-all=\p Spec on every function of \p M; "" does nothing.
/// False after reporting errors.
bool truncateAllFunctions(llvm::Module &M, llvm::StringRef Spec,
                          TLIGetter GetTLI);

} // namespace tapestry

#endif // TAPESTRY_PASSES_TRUNCATEREQUEST_H
