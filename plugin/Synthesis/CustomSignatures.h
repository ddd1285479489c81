//===- CustomSignatures.h - Types of registered derivatives -----*- C++ -*-===//
//
// Enzyme's conventions for user-registered derivatives of f:
//   fwd(args...): every floating-point or pointer argument is followed by its
//     tangent or shadow; returns the tangent of f's result.
//   aug(args...): every pointer argument is followed by its shadow; returns
//     nothing, the tape (void *), f's result, or { void *tape; result }.
//   rev(args..., [d_result], [tape]): pointers followed by shadows, then the
//     adjoint of a floating-point result, then the tape if aug returns one;
//     returns the adjoints of f's floating-point arguments (one bare,
//     several as a struct, in order).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_CUSTOMSIGNATURES_H
#define TAPESTRY_SYNTHESIS_CUSTOMSIGNATURES_H

namespace llvm {
class Function;
class FunctionType;
class Type;
} // namespace llvm

namespace tapestry {

llvm::FunctionType *forwardDerivativeType(const llvm::Function &F);
/// The parameters aug must take; its return type is taken from \p Aug if
/// it is one of the allowed forms, else f's result type (for the message).
llvm::FunctionType *augmentedType(const llvm::Function &F,
                                  const llvm::Function &Aug);
/// Whether aug (of the allowed type) returns a tape and/or f's result.
bool augmentedReturnsTape(const llvm::Function &F, const llvm::Function &Aug);
bool augmentedReturnsPrimal(const llvm::Function &F, const llvm::Function &Aug);
llvm::FunctionType *reverseType(const llvm::Function &F, bool HasTape);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_CUSTOMSIGNATURES_H
