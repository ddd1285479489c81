//===- RequestWrappers.h - Helpers that request their parameter -*- C++ -*-===//
//
// Requests written once in a helper and made for the functions its callers
// pass: C++ wrappers such as enzyme::autodiff (always-inline), and C
// helpers `gradient(f, x, g)` calling `__enzyme_autodiff((void *)f, ...)`.
// Inlining such a helper where its caller names the function (or passes
// null for an optional one) turns the parameter back into the function.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_REQUESTWRAPPERS_H
#define TAPESTRY_PASSES_REQUESTWRAPPERS_H

namespace llvm {
class Module;
} // namespace llvm

namespace tapestry {

/// Inlines, into their callers, the always-inline functions that make
/// requests, and the call sites of helpers requesting a function parameter
/// that pass a function (or null) for it, through helpers passing the
/// parameter on (by call, or to a request differentiating such a helper).
/// A test of such a parameter against null is then folded; a request left
/// on a null function pointer stops the program, with a message, if it is
/// ever reached. A request that differentiates such a helper and passes it
/// functions for those parameters differentiates a copy of the helper with
/// the functions in their place.
void inlineRequestWrappers(llvm::Module &M);

} // namespace tapestry

#endif // TAPESTRY_PASSES_REQUESTWRAPPERS_H
