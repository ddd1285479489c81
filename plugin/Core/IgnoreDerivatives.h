//===- IgnoreDerivatives.h - Enzyme's stop-gradient -------------*- C++ -*-===//
//
// __enzyme_ignore_derivatives(x) is x with no derivative: code that
// differentiates through it sees the value and propagates nothing back
// (reverse) or forward (a zero tangent), as a stop-gradient does. Calls are
// inactive (Core/KnownInactive) wherever they are differentiated, kept in
// derivatives as calls, and each is replaced by its argument once every
// request is resolved.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_IGNOREDERIVATIVES_H
#define TAPESTRY_CORE_IGNOREDERIVATIVES_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace llvm {
class CallBase;
class Module;
} // namespace llvm

namespace tapestry {

/// True for the name of Enzyme's stop-gradient (also a C++ mangled one).
bool isIgnoreDerivativesName(llvm::StringRef Name);

/// Why a call of it is malformed (the message for the error at the call),
/// or "" if it takes one value and returns that value's type.
std::string ignoreDerivativesProblem(const llvm::CallBase &CB);

/// Gives its declarations in \p M the attributes of a pure function, so
/// that analyses see a computation on values.
void declareIgnoreDerivativesPure(llvm::Module &M);

/// Replaces each well-formed call in \p M by its argument.
void lowerIgnoreDerivatives(llvm::Module &M);

} // namespace tapestry

#endif // TAPESTRY_CORE_IGNOREDERIVATIVES_H
