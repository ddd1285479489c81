//===- SupportedInstructions.h - What can be differentiated -----*- C++ -*-===//
//
// The one place that decides whether an instruction of the prepared primal
// can be differentiated in the request's mode. Both synthesizers run it on
// every instruction before they differentiate anything; what it rejects is
// reported at the user's source line (SynthesizerBase::fail) and the
// synthesizers' visitors then leave it alone: they never re-decide support.
//
// It is an llvm::InstVisitor: stores and calls have their own checks (a
// shadowless pointer stored where a callee reads it, an external function
// without a derivative, an OpenMP construct, a realloc of the caller's
// buffer, ...); the instruction classes both modes differentiate (rule
// operations, fpext/fptrunc, select, phi, load, the aggregate and vector
// element moves) only have to carry no derivative through bit manipulation;
// any other instruction that carries a derivative is an error.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_SUPPORTEDINSTRUCTIONS_H
#define TAPESTRY_SYNTHESIS_SUPPORTEDINSTRUCTIONS_H

#include "Analysis/EscapedShadows.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/InstVisitor.h"
#include <memory>
#include <string>

namespace tapestry {

class SynthesizerBase;

class SupportedInstructions : public llvm::InstVisitor<SupportedInstructions> {
public:
  explicit SupportedInstructions(SynthesizerBase &S) : S(S) {}

  /// Reports everything that keeps primal instruction \p I from being
  /// differentiated in the request's mode.
  void check(llvm::Instruction &I);
  /// __enzyme_error_estimate: true if the error model describes call
  /// \p CB (check() reports the calls it does not).
  bool hasErrorModel(llvm::CallBase &CB) const {
    return errorModelGap(CB).empty();
  }

  // InstVisitor: what each kind of instruction needs.
  void visitStoreInst(llvm::StoreInst &SI);
  void visitCallBase(llvm::CallBase &CB);
  void visitMemTransferInst(llvm::MemTransferInst &MT);
  void visitAtomicRMWInst(llvm::AtomicRMWInst &RMW);
  /// Control flow, comparisons and conversions to integers carry no
  /// derivative.
  void visitTerminator(llvm::Instruction &) {}
  /// A computed goto jumps to the primal's labels.
  void visitIndirectBrInst(llvm::IndirectBrInst &I);
  void visitFCmpInst(llvm::FCmpInst &) {}
  void visitFPToSIInst(llvm::FPToSIInst &) {}
  void visitFPToUIInst(llvm::FPToUIInst &) {}
  /// What both synthesizers differentiate.
  void visitBinaryOperator(llvm::BinaryOperator &I) { checkRule(I); }
  void visitUnaryOperator(llvm::UnaryOperator &I) { checkRule(I); }
  void visitFreezeInst(llvm::FreezeInst &I) { checkRule(I); }
  void visitCastInst(llvm::CastInst &I);
  void visitLoadInst(llvm::LoadInst &LI);
  void visitSelectInst(llvm::SelectInst &I) { checkBitManipulation(I); }
  void visitPHINode(llvm::PHINode &I) { checkBitManipulation(I); }
  void visitExtractValueInst(llvm::ExtractValueInst &I) {
    checkBitManipulation(I);
    checkUntrackedAggregate(I);
  }
  void visitInsertValueInst(llvm::InsertValueInst &I) {
    checkBitManipulation(I);
  }
  void visitExtractElementInst(llvm::ExtractElementInst &I) {
    checkBitManipulation(I);
  }
  void visitInsertElementInst(llvm::InsertElementInst &I) {
    checkBitManipulation(I);
  }
  void visitShuffleVectorInst(llvm::ShuffleVectorInst &I) {
    checkBitManipulation(I);
  }
  /// Anything else: fine unless it carries a derivative.
  void visitInstruction(llvm::Instruction &I);

private:
  /// A pointer that may be constant at run time (RuntimeActivity.h) used
  /// where its shadow is used without the run-time test.
  void checkRuntimeConstantUse(llvm::Instruction &I);
  /// Scalable vectors and masked loads of pointers; false after reporting.
  bool checkVectors(llvm::Instruction &I);
  /// A derivative flowing into an integer (a double reinterpreted as bits).
  bool readsIntegerLanes(llvm::BitCastInst &BC);
  void checkBitManipulation(llvm::Instruction &I);
  /// A floating-point member taken out of a struct value that also holds
  /// pointers ({double, ptr}), which carries no derivative, where the
  /// member needs one.
  void checkUntrackedAggregate(llvm::ExtractValueInst &EV);
  /// A floating-point value rebuilt by a bitcast from integers that were
  /// read from memory with a shadow (what preparation's retyping of
  /// bitcast copies could not turn back into floating-point loads).
  void checkFloatFromLoadedIntegers(llvm::BitCastInst &BC);
  /// The integer load of floating-point bytes that integer \p V is
  /// computed from by integer arithmetic, or null.
  const llvm::LoadInst *floatBitsBehind(const llvm::Value *V, unsigned Depth);
  /// True if \p BO updates a count the front end declared an integer
  /// (TBAA), by an integer free of a float's bits: not bit manipulation.
  bool isCountUpdate(const llvm::BinaryOperator &BO);
  /// True unless the type analysis knows the \p Size bytes at \p Ptr hold
  /// no floating-point data.
  bool mayHoldFloat(const llvm::Value *Ptr, llvm::Type *Loaded);
  /// True if, looking deeper and at what the function's callers do with
  /// the memory they pass, the bytes at \p Ptr hold floating-point data
  /// (integer reads of a caller's doubles, compared to choose one).
  bool callersHoldFloat(const llvm::Value *Ptr, llvm::Type *Loaded);
  /// A load of memory with a shadow that may hold floating-point data,
  /// among the integers an integer phi, select, minimum or maximum
  /// \p Choice may be; or null.
  const llvm::LoadInst *floatLoadBehindChoice(const llvm::Value *Choice);
  /// An operation with a derivative rule (and, for error estimates, a
  /// floating-point result).
  void checkRule(llvm::Instruction &I);
  /// A pointer without a shadow stored into shadowed memory that a callee
  /// differentiated on its own reads.
  void checkShadowlessPointerStore(llvm::StoreInst &SI);
  /// A call through a pointer that cannot be dispatched.
  void checkScanfCall(llvm::CallBase &CB);
  void checkIndirectCall(llvm::CallBase &CB);
  /// A call to a function with neither a body nor a registered derivative.
  void checkExternalCall(llvm::CallBase &CB, llvm::Function &Callee);
  /// A call of a function without a body that takes no differentiated
  /// argument but may reach memory with a shadow whose address escaped
  /// (Analysis/EscapedShadows.h).
  void checkCallReachingEscapedShadows(llvm::CallBase &CB);
  /// Reverse mode inside a parallel region: copying shared memory would
  /// add adjoints other threads add to.
  void checkSharedCopy(llvm::Instruction &I, llvm::Value *Src);
  /// __enzyme_error_estimate: why the error model does not describe \p CB,
  /// or "".
  std::string errorModelGap(llvm::CallBase &CB) const;
  void fail(const llvm::Instruction *I, const llvm::Twine &Msg);

  SynthesizerBase &S;
  /// Computed at the first call that needs it.
  std::unique_ptr<EscapedShadows> Escaped;
};

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_SUPPORTEDINSTRUCTIONS_H
