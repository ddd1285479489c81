//===- RequestArguments.h - Values as request calls pass them ---*- C++ -*-===//
//
// A request's arguments as the call passes them, seen through what -O0
// code and inlined C++ wrappers put in between: the function to
// differentiate (through casts, aliases, constant globals and locals
// stored once), the markers (loads of enzyme_* globals) and compile-time
// constant integers (enzyme_width's).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_REQUESTARGUMENTS_H
#define TAPESTRY_PASSES_REQUESTARGUMENTS_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>

namespace llvm {
class CallBase;
class IRBuilderBase;
class Type;
class Constant;
class Function;
class Value;
} // namespace llvm

namespace tapestry {

/// The function a request call differentiates (its first argument, through
/// casts, aliases and constant globals), or null.
llvm::Function *requestTarget(llvm::CallBase &CB);

/// The marker a value passes (e.g. "enzyme_dup", or one of Tapestry's own
/// such as "tapestry_reusable_tape"), or "" if it is not one.
llvm::StringRef markerName(const llvm::Value *V);

/// The value of a compile-time constant integer argument, as -O0 code
/// passes it too (through a local stored once or a constant global).
std::optional<int64_t> constantIntegerArgument(llvm::Value *V);

/// The function value \p V names, through casts, aliases, constant
/// globals holding the pointer and local variables stored once; null if
/// none. (\p Nesting bounds the search.)
llvm::Function *resolveFunction(llvm::Value *V, unsigned Nesting = 0);

/// The argument a call passes through unchanged: \p V calls a function
/// that writes nothing but its own locals and returns the same parameter
/// from every return (std::forward, std::move, an identity); else null.
llvm::Value *argumentPassedThrough(llvm::Value *V);

/// The one value the local variable \p Ptr points to is ever given (stored
/// once, and its address otherwise only read through, also by references
/// to it, as inlined C++ wrappers keep `F &&f` at -O0); null if \p Ptr is
/// no such variable.
llvm::Value *onlyValueOfLocal(llvm::Value *Ptr);

/// The value a local variable stored once holds, when \p V reads one
/// (through up to 32 such locals, as -O0 code passes a pointer); else
/// \p V without pointer casts.
llvm::Value *throughLocals(llvm::Value *V);

/// What \p V reads, when it loads a local object written once at offset 0
/// (a struct holding a pointer, as a C++ class such as enzyme::context
/// keeps it) whose address is only read or kept in locals stored once, as
/// inlined wrappers pass it by reference at -O0; through up to 32 such
/// objects, and otherwise as throughLocals.
llvm::Value *throughLocalObjects(llvm::Value *V);

/// \p V, passed through `...`, converted to parameter type \p To as a C
/// call converts it (integers sign-extended or truncated, floating-point
/// values extended or rounded, pointers as they are); null if it cannot be.
llvm::Value *convertAsArgument(llvm::IRBuilderBase &B, llvm::Value *V,
                               llvm::Type *To);

/// The constant an integer value holds, through integer casts, a local
/// variable stored once or a constant global; null if not a constant.
llvm::Constant *constantValue(llvm::Value *V);

} // namespace tapestry

#endif // TAPESTRY_PASSES_REQUESTARGUMENTS_H
