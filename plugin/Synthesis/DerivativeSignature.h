//===- DerivativeSignature.h - How derivatives are called -------*- C++ -*-===//
//
// The calling convention shared by the synthesizers and the call-site
// rewriter. A synthesised derivative takes, for each primal parameter in
// order, the primal value followed by its shadow (enzyme_dup/dupnoneed) or
// tangent (forward mode); reverse mode then takes the seed of an active
// return. It returns, in order, the primal return (if requested) and then
// the adjoints of enzyme_out parameters (reverse) or the tangent of the
// return (forward): nothing is void, one value is returned bare, several as
// a literal struct.
//
// In batch mode (width N > 1) a shadow or tangent parameter carries all N
// (batchType: <N x T> for a floating-point scalar, [N x ptr] for a pointer),
// the seed is <N x T>, and each derivative result is returned as [N x T].
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_DERIVATIVESIGNATURE_H
#define TAPESTRY_SYNTHESIS_DERIVATIVESIGNATURE_H

#include "Core/DiffRequest.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace tapestry {

struct DerivativeSignature {
  llvm::FunctionType *Type = nullptr;
  /// Per primal parameter: its index in the derivative, and the index of its
  /// shadow or tangent (-1 if none).
  llvm::SmallVector<int, 8> PrimalArg;
  llvm::SmallVector<int, 8> ShadowArg;
  /// Index of the return seed (reverse mode with an active return), or -1.
  int SeedArg = -1;
  /// The results, in order.
  llvm::SmallVector<llvm::Type *, 4> Results;
};

DerivativeSignature computeSignature(const DiffRequest &R);

/// Creates the derivative function with the signature and the primal's body
/// cloned into it (\p VMap maps primal to clone). Returns still return the
/// primal's type: the synthesizer replaces them.
llvm::Function *createDerivativeFunction(const DiffRequest &R,
                                         const DerivativeSignature &Sig,
                                         llvm::Function &Primal,
                                         llvm::ValueToValueMapTy &VMap);

/// Emits the return of \p Results packed as the signature says.
void emitResultReturn(llvm::IRBuilderBase &B, const DerivativeSignature &Sig,
                      llvm::ArrayRef<llvm::Value *> Results);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_DERIVATIVESIGNATURE_H
