//===- ForwardModeSynthesizer.h - Tangent (forward-mode) functions -*- C++
//-*-===//
#ifndef TAPESTRY_SYNTHESIS_FORWARDMODESYNTHESIZER_H
#define TAPESTRY_SYNTHESIS_FORWARDMODESYNTHESIZER_H

#include "Core/BlasFunctions.h"
#include "Synthesis/SynthesizerBase.h"

namespace tapestry {

/// Builds the forward-mode derivative: the primal's code with, after every
/// active instruction, the computation of its tangent.
class ForwardModeSynthesizer : SynthesizerBase {
public:
  explicit ForwardModeSynthesizer(const SynthesisInput &In)
      : SynthesizerBase(In) {}

  /// Returns the new function, or null after reporting errors.
  llvm::Function *run();

private:
  llvm::Value *tangent(llvm::Value *PV);
  /// Partial * tangent(PV) and X + Y for tangents of a value of type
  /// \p ResultTy, in all lanes.
  llvm::Value *scaledTangent(PartialEmitter &E, llvm::IRBuilderBase &B,
                             llvm::Value *Partial, llvm::Value *PV,
                             llvm::Type *ResultTy);
  llvm::Value *addTangents(PartialEmitter &E, llvm::IRBuilderBase &B,
                           llvm::Value *X, llvm::Value *Y,
                           llvm::Type *ResultTy);
  void visit(llvm::Instruction &PI);
  void visitStore(llvm::StoreInst &SI, llvm::IRBuilderBase &B);
  void visitMemIntrinsic(llvm::MemIntrinsic &MI, llvm::IRBuilderBase &B);
  void visitCustomForward(llvm::CallBase &CB, llvm::Function &Fwd,
                          llvm::IRBuilderBase &B);
  void visitDefinedCall(llvm::CallBase &CB, llvm::IRBuilderBase &B);
  /// Reductions, masked accesses, lane moves (Synthesis/VectorRules.cpp).
  void visitVectorCall(llvm::CallBase &CB, llvm::IRBuilderBase &B);
  /// BLAS routines, by calling BLAS (Synthesis/BlasRules.cpp).
  void visitBlasCall(llvm::CallBase &CB, const BlasCall &BC);
  /// __enzyme_error_estimate (Synthesis/ErrorModel.cpp): the error of
  /// \p PI's result from its operands' errors and its own rounding, by
  /// derivative rule \p Rule (null for a conversion); null for what
  /// SupportedInstructions rejects.
  llvm::Value *propagatedError(llvm::Instruction &PI,
                               const DerivativeRule *Rule,
                               llvm::IRBuilderBase &B);
  /// OpenMP (Synthesis/OpenMPRegions.cpp): a parallel region forks its
  /// body's tangent function; an atomic update updates the tangent too.
  void visitParallelRegion(llvm::CallBase &Fork);
  void visitAtomicRMW(llvm::AtomicRMWInst &RMW, llvm::IRBuilderBase &B);
  void finishTangentPhis();
  void replaceReturn(llvm::ReturnInst &PRet);

  /// Tangents of active primal values, keyed by primal value.
  llvm::DenseMap<const llvm::Value *, llvm::Value *> Tangents;
};

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_FORWARDMODESYNTHESIZER_H
