//===- CallSiteRewriter.h - Request calls made derivative calls -*- C++ -*-===//
//
// Once a request's derivative exists, its call is rewritten: the primal and
// shadow arguments are passed in the derivative's parameter order, split
// mode's tape is allocated, checked and released, and the derivative's
// results are handed back in the shape the user declared the entry point
// to return (bare, through sret memory, or reinterpreted through memory
// when the C ABI coerced a struct).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_CALLSITEREWRITER_H
#define TAPESTRY_PASSES_CALLSITEREWRITER_H

#include "Passes/RequestDecoder.h"
#include "llvm/IR/IRBuilder.h"

namespace tapestry {

struct SplitDerivative;

/// Replaces one request call by calls to its derivative functions.
class CallSiteRewriter {
public:
  CallSiteRewriter(llvm::CallBase &CB, const DecodedCall &D)
      : CB(CB), D(D), B(&CB) {}

  /// One-shot reverse or forward mode.
  bool rewriteOneShot(llvm::Function &G);
  /// __enzyme_augmentfwd.
  bool rewriteAugmented(const SplitDerivative &S);
  /// __enzyme_reverse.
  bool rewriteReverse(const SplitDerivative &S);
  /// __enzyme_fwdsplit: the forward derivative \p G, after releasing the
  /// tape of the augmented forward \p Origin (null if unknown).
  bool rewriteForwardSplit(llvm::Function &G, const SplitDerivative *Origin);

private:
  bool deliverResults(llvm::Value *Result,
                      llvm::ArrayRef<llvm::Type *> ResultTypes);
  /// The derivative's results \p Call (of types \p CallTypes) with the
  /// adjoints of structs passed by value in memory (enzyme_out) in their
  /// parameters' places; \p Types receives their types.
  llvm::Value *withByValAdjoints(llvm::Value *Call,
                                 llvm::ArrayRef<llvm::Type *> CallTypes,
                                 llvm::SmallVectorImpl<llvm::Type *> &Types);
  /// Primal and shadow arguments, in the derivative's parameter order.
  llvm::SmallVector<llvm::Value *, 16> primalAndShadowArgs() const;
  /// The caller's tape buffer, checked against the tape's size.
  llvm::Value *callerBuffer(const SplitDerivative &S);
  /// Erases the request call (continuing an invoke on its normal path).
  bool finish();
  /// enzyme_runtime_activity: stops the program when a shadow argument is
  /// its value (Enzyme's run-time inactive argument), which the derivative
  /// would treat as active.
  void checkRuntimeInactiveArgs();

  llvm::CallBase &CB;
  const DecodedCall &D;
  llvm::IRBuilder<> B;
};

/// Erases a request call whose uses are gone. A request reached through an
/// invoke (C++ with cleanups) continues on its normal path: the derivative's
/// own failures do not unwind there.
void eraseRequestCall(llvm::CallBase &CB);

} // namespace tapestry

#endif // TAPESTRY_PASSES_CALLSITEREWRITER_H
