//===- InertCalls.h - Calls whose inputs carry no derivative ----*- C++ -*-===//
//
// A call to a function with a registered derivative whose inputs all carry
// derivative 0 (constant values and pointers, or locals that never hold a
// derivative) has outputs of derivative 0: Enzyme finds such calls inactive
// and calls no rule. Tapestry does the same, so an Enzyme user's rule,
// which dereferences every shadow it receives, is never handed the null
// shadow of a constant pointer for a call that needs no derivative.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_ANALYSIS_INERTCALLS_H
#define TAPESTRY_ANALYSIS_INERTCALLS_H

namespace llvm {
class CallBase;
class Instruction;
class Value;
} // namespace llvm

namespace tapestry {

class ActivityInfo;

/// True if no argument of \p CB carries a derivative: its value arguments
/// are not varied, and each pointer argument has no shadow or points into
/// stack memory without derivatives (pointsToMemoryWithoutDerivative). The call
/// then needs no derivative code: its results and the memory it writes have
/// derivative 0.
bool receivesNoDerivative(const llvm::CallBase &CB, const ActivityInfo &AI);

/// True if \p Ptr points only into stack memory (allocas) that nothing but
/// reads, memset, stores of values without derivatives, copies from memory
/// without a shadow and \p Except touch: its shadow is never anything but
/// zero.
bool pointsToMemoryWithoutDerivative(const llvm::Value *Ptr,
                                     const llvm::Instruction &Except,
                                     const ActivityInfo &AI);

} // namespace tapestry

#endif // TAPESTRY_ANALYSIS_INERTCALLS_H
