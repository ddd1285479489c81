//===- ForwardModeSynthesizer.h - Forward-mode derivatives ------*- C++ -*-===//
//
// Forward mode: the derivative function is the primal's code with, after
// every active instruction, the computation of its tangent. The tangents
// are made by an llvm::InstVisitor over the primal in reverse post-order,
// after SupportedInstructions has checked each instruction; in batch mode
// (enzyme_width) a tangent carries one derivative per lane and the lane
// helpers of SynthesizerBase build it.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_FORWARDMODESYNTHESIZER_H
#define TAPESTRY_SYNTHESIS_FORWARDMODESYNTHESIZER_H

#include "Core/BlasFunctions.h"
#include "Core/MPIFunctions.h"
#include "Synthesis/PackedShadows.h"
#include "Synthesis/SynthesizerBase.h"
#include "llvm/IR/InstVisitor.h"

namespace tapestry {

/// Builds the forward-mode derivative: the primal's code with, after every
/// active instruction, the computation of its tangent.
class ForwardModeSynthesizer : SynthesizerBase,
                               llvm::InstVisitor<ForwardModeSynthesizer> {
  friend class llvm::InstVisitor<ForwardModeSynthesizer>;

public:
  explicit ForwardModeSynthesizer(const SynthesisInput &In)
      : SynthesizerBase(In) {}

  /// Returns the new function, or null after reporting errors.
  llvm::Function *run();

  /// The program's enzymeLogError(double res, double err, const char
  /// *opcode, const char *callee, const char *module, const char *function,
  /// const char *block), which __enzyme_error_estimate calls for each
  /// operation, as Enzyme does; null if \p M defines none with that
  /// signature.
  static llvm::Function *errorLogger(llvm::Module &M);

private:
  llvm::Value *tangent(llvm::Value *PV);
  void setTangent(llvm::Instruction &PI, llvm::Value *T);
  /// Partial * tangent(PV) and X + Y for tangents of a value of type
  /// \p ResultTy, in all lanes.
  llvm::Value *scaledTangent(PartialEmitter &E, llvm::IRBuilderBase &B,
                             llvm::Value *Partial, llvm::Value *PV,
                             llvm::Type *ResultTy);
  llvm::Value *addTangents(PartialEmitter &E, llvm::IRBuilderBase &B,
                           llvm::Value *X, llvm::Value *Y,
                           llvm::Type *ResultTy);
  /// Gives primal instruction \p PI its shadow or its tangent.
  void differentiate(llvm::Instruction &PI);

  // InstVisitor: the tangent of each kind of instruction, built after its
  // clone (Builder).
  void visitStoreInst(llvm::StoreInst &SI);
  void visitMemIntrinsic(llvm::MemIntrinsic &MI);
  void visitAtomicRMWInst(llvm::AtomicRMWInst &RMW) {
    tangentAtomicRMW(RMW, *Builder);
  }
  void visitCallBase(llvm::CallBase &CB);
  void visitBinaryOperator(llvm::BinaryOperator &I) { visitRuleOperation(I); }
  void visitFDiv(llvm::BinaryOperator &I);
  void visitUnaryOperator(llvm::UnaryOperator &I) { visitRuleOperation(I); }
  void visitFreezeInst(llvm::FreezeInst &I);
  void visitFPExtInst(llvm::FPExtInst &I) { visitFPCast(I); }
  void visitFPTruncInst(llvm::FPTruncInst &I) { visitFPCast(I); }
  void visitSelectInst(llvm::SelectInst &Sel);
  void visitPHINode(llvm::PHINode &Phi);
  void visitLoadInst(llvm::LoadInst &LI);
  void visitExtractValueInst(llvm::ExtractValueInst &EV);
  void visitInsertValueInst(llvm::InsertValueInst &IV);
  void visitExtractElementInst(llvm::ExtractElementInst &EE);
  void visitInsertElementInst(llvm::InsertElementInst &IE);
  void visitShuffleVectorInst(llvm::ShuffleVectorInst &SV);
  /// Anything else has no tangent, or was rejected by SupportedInstructions.
  void visitInstruction(llvm::Instruction &) {}

  void visitRuleOperation(llvm::Instruction &PI);
  void visitFPCast(llvm::CastInst &Cast);
  /// The tangent of \p PI by its derivative rule: the sum of its partials
  /// times its operands' tangents.
  void tangentByRule(llvm::Instruction &PI, const DerivativeRule *Rule);
  /// A deallocation frees the shadow too.
  void freeShadow(llvm::CallBase &CB, llvm::IRBuilderBase &B);

  // The call hooks (visitCallBase).
  void visitCustomForward(llvm::CallBase &CB, llvm::Function &Fwd,
                          llvm::IRBuilderBase &B);
  void visitDefinedCall(llvm::CallBase &CB, llvm::IRBuilderBase &B);
  /// Reductions, masked accesses, lane moves (Synthesis/VectorRules.cpp).
  void visitVectorCall(llvm::CallBase &CB, llvm::IRBuilderBase &B);
  /// BLAS routines, by calling BLAS (Synthesis/BlasRules.cpp).
  void visitBlasCall(llvm::CallBase &CB, const BlasCall &BC);
  /// MPI routines, by communicating tangents (Synthesis/MPIRules.cpp).
  void visitMPICall(llvm::CallBase &CB, const MPICall &MC);
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
  void tangentAtomicRMW(llvm::AtomicRMWInst &RMW, llvm::IRBuilderBase &B);
  void finishTangentPhis();
  void replaceReturn(llvm::ReturnInst &PRet);

  // Batch mode: allocations whose shadow lanes are packed side by side
  // (Synthesis/PackedShadows.h; emitted by Synthesis/ForwardPackedShadows.cpp).
  /// The packed shadow of a pointer the plan packs (null for null).
  llvm::Value *packedShadow(llvm::Value *PV);
  /// Creates the shadow of pointer \p PI if the plan packs it or it is
  /// loaded from packed memory; false if \p PI is neither.
  bool createPackedShadow(llvm::Instruction &PI);
  /// The W lanes of a \p T at packed shadow address \p SPtr, as a batch
  /// value; and the store of batch value \p V there.
  llvm::Value *loadPacked(llvm::IRBuilderBase &B, llvm::Type *T,
                          llvm::Value *SPtr);
  void storePacked(llvm::IRBuilderBase &B, llvm::Value *V, llvm::Type *T,
                   llvm::Value *SPtr);
  /// memset/memcpy/memmove into packed memory.
  void packedMemIntrinsic(llvm::MemIntrinsic &MI, llvm::IRBuilderBase &B);
  /// A deallocation of a packed block.
  void freePackedShadow(llvm::CallBase &CB, llvm::IRBuilderBase &B);
  void finishPackedPhis();

  PackedShadowPlan Packed;
  /// Packed shadows, keyed by primal pointer (not in Shadows: no per-lane
  /// shadow exists for them).
  llvm::DenseMap<const llvm::Value *, llvm::Value *> PackedShadows;

  /// Tangents of active primal values, keyed by primal value.
  llvm::DenseMap<const llvm::Value *, llvm::Value *> Tangents;
  /// Where the visitor builds the current instruction's tangent.
  llvm::IRBuilderBase *Builder = nullptr;
};

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_FORWARDMODESYNTHESIZER_H
