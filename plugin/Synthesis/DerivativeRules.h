//===- DerivativeRules.h - Partial derivatives of primitives ----*- C++ -*-===//
//
// The rules table (DerivativeRules.def) gives, for each differentiable
// instruction and math function, the partial derivative of the result with
// respect to each operand, as IR built by a PartialEmitter. Forward and reverse
// mode both consume it.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_DERIVATIVERULES_H
#define TAPESTRY_SYNTHESIS_DERIVATIVERULES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"

namespace tapestry {

/// Builds the IR of one partial derivative. Operands and the result are
/// fetched through a lookup callback only when the rule uses them, so reverse
/// mode caches just what a rule needs.
class PartialEmitter {
public:
  using LookupFn = llvm::function_ref<llvm::Value *(llvm::Value *)>;

  /// With \p AfterWholeBlock, the partials are emitted where the whole
  /// primal block of \p Result has run (reverse mode), so that a value the
  /// block computes after \p Result can serve them too.
  PartialEmitter(llvm::IRBuilderBase &B, llvm::ArrayRef<llvm::Value *> Operands,
                 llvm::Value *Result, LookupFn Lookup,
                 bool AfterWholeBlock = false)
      : B(B), Operands(Operands), Result(Result), Lookup(Lookup),
        AfterWholeBlock(AfterWholeBlock) {}

  llvm::Value *arg(unsigned I);
  llvm::Value *result();

  llvm::Value *zero();
  llvm::Value *one();
  llvm::Value *minusOne();
  llvm::Value *constant(double C);
  /// ln 2, ln 10 and 2/sqrt(pi), exact in every floating-point type
  /// (long double included).
  llvm::Value *ln2();
  llvm::Value *ln10();
  llvm::Value *twoOverSqrtPi();

  llvm::Value *add(llvm::Value *A, llvm::Value *C);
  llvm::Value *sub(llvm::Value *A, llvm::Value *C);
  llvm::Value *mul(llvm::Value *A, llvm::Value *C);
  llvm::Value *div(llvm::Value *A, llvm::Value *C);
  llvm::Value *neg(llvm::Value *A);
  llvm::Value *sqrt(llvm::Value *A) { return unary(llvm::Intrinsic::sqrt, A); }
  llvm::Value *unary(llvm::Intrinsic::ID IID, llvm::Value *A);
  /// The math function \p IID of operand \p I: the primal's own call when
  /// its block computes it too (sin's partial is the cos the code beside it
  /// takes of the same angle, as rotations do), else a new call.
  llvm::Value *unaryOfArg(llvm::Intrinsic::ID IID, unsigned I);
  llvm::Value *binary(llvm::Intrinsic::ID IID, llvm::Value *A, llvm::Value *C);

  /// V == 0 ? IfZero : Otherwise.
  llvm::Value *selectIfZero(llvm::Value *V, llvm::Value *IfZero,
                            llvm::Value *Otherwise);
  /// copysign(1, V): +1 or -1 by the sign bit, zeros and NaNs included.
  llvm::Value *unitWithSignOf(llvm::Value *V);
  llvm::Value *lessThan(llvm::Value *A, llvm::Value *C);
  /// Cond || isnan(X): fmax and fmin return their second operand when the
  /// first is NaN.
  llvm::Value *orIsNaN(llvm::Value *Cond, llvm::Value *X);
  llvm::Value *pick(llvm::Value *Cond, llvm::Value *IfTrue,
                    llvm::Value *IfFalse);
  llvm::Value *intToFP(llvm::Value *I);
  llvm::Value *intSub1(llvm::Value *I);
  llvm::Value *powi(llvm::Value *X, llvm::Value *N);
  llvm::Value *ldexp(llvm::Value *X, llvm::Value *N);
  /// A call to the C library function \p Base of the operand's type ("j1",
  /// "j1f", "j1l"), lane by lane for a vector.
  llvm::Value *libcall(llvm::StringRef Base, llvm::Value *A);
  /// The digamma function psi = lgamma' (no C library has it), computed by
  /// an internal helper emitted once per module and type.
  llvm::Value *digamma(llvm::Value *A);

private:
  llvm::Type *fpType() const { return Result->getType(); }

  llvm::IRBuilderBase &B;
  llvm::ArrayRef<llvm::Value *> Operands;
  llvm::Value *Result;
  LookupFn Lookup;
  bool AfterWholeBlock;
};

/// One entry of the rules table.
struct DerivativeRule {
  const char *Name;
  unsigned NumOperands;
  llvm::Intrinsic::ID IID;
  /// Library base name ("sin"), or "" for intrinsic-only entries.
  const char *LibName;
  /// The partial derivative with respect to operand ArgNo, or null if that
  /// operand carries no derivative.
  llvm::Value *(*Partial)(PartialEmitter &E, unsigned ArgNo);
};

/// The rule for a floating-point instruction opcode, or null.
const DerivativeRule *findInstructionRule(unsigned Opcode);
/// The rule for a call to a math function or intrinsic, or null.
const DerivativeRule *findCallRule(const llvm::CallBase &CB);
/// The rule for a library function name ("sinf" -> sin), or null.
const DerivativeRule *findLibraryRule(llvm::StringRef Name);
/// Every math-function entry (for tests and documentation).
llvm::ArrayRef<DerivativeRule> mathRules();

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_DERIVATIVERULES_H
