//===- KnownInactive.h - Library functions never differentiated -*- C++ -*-===//
//
// Functions of the C and C++ runtime libraries through which no
// floating-point data reaches a function's results: output, text, clocks,
// random numbers. Calls to them are kept in derivatives as they are (never
// inlined, never differentiated), as printf is.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_KNOWNINACTIVE_H
#define TAPESTRY_CORE_KNOWNINACTIVE_H

#include "llvm/ADT/StringRef.h"

namespace tapestry {

/// True for the (mangled) name of a known inactive library function.
bool isKnownInactiveFunction(llvm::StringRef Name);

/// True for the name of a check a sanitizer compiles into a function
/// (__ubsan_handle_*, __asan_*): it reports, or stops the program, and
/// writes none of the program's memory; the values it receives (an
/// operand's bits) carry no derivative.
bool isSanitizerCheck(llvm::StringRef Name);

} // namespace tapestry

#endif // TAPESTRY_CORE_KNOWNINACTIVE_H
