//===- ErrorModel.cpp - Round-off errors for __enzyme_error_estimate ------===//
//
// __enzyme_error_estimate is forward mode whose "tangents" are error
// estimates, combined as Enzyme's forward error mode does. An operation
// y = f(a_1, ..., a_n) with derivative rule df/da_i gets
//
//   err(y) = max(ulp(y), sum_i |err(a_i) * a_i / y * df/da_i(a)|)
//
// where ulp(y) = |y - y'| with y' the number whose encoding differs from y's
// in the last bit: the rounding error y itself may carry. The sum carries
// the operands' errors through the operation's condition numbers. Values
// only moved (loads, stores, phis, selects, extracts, memcpy) keep their
// error; operations whose result is exact (negation, fabs, copysign, fmax
// and fmin, floor and the other roundings to integers, fmod, ldexp, frexp,
// modf, fpext) have no rounding term. What the model does not describe (a
// vector reduction, BLAS, a registered forward derivative) is an error
// naming the operation.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/ForwardModeSynthesizer.h"

#include "Core/Diagnostics.h"
#include "Synthesis/VectorRules.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace tapestry {

/// True for operations whose floating-point result is exact: they add no
/// rounding error of their own.
static bool isExact(const Instruction &PI, const DerivativeRule *Rule) {
  if (isa<FPExtInst>(PI))
    return true;
  if (!Rule)
    return false;
  return StringSwitch<bool>(Rule->Name)
      .Cases("FNeg", "Freeze", "FRem", "fabs", "copysign", true)
      .Cases("fmax", "fmin", "maximum", "minimum", "fmod", true)
      .Cases("ldexp", "scalbn", "scalbln", "frexp", "modf", true)
      .Cases("floor", "ceil", "round", "roundeven", "trunc", true)
      .Cases("rint", "nearbyint", true)
      .Default(false);
}

/// |Y - Y'|, Y' being Y with the last bit of its encoding flipped: one unit
/// in the last place of Y (lane by lane for vectors).
static Value *unitInLastPlace(IRBuilderBase &B, Value *Y) {
  Type *T = Y->getType();
  Type *IntTy =
      T->isVectorTy()
          ? (Type *)VectorType::getInteger(cast<VectorType>(T))
          : (Type *)B.getIntNTy(T->getPrimitiveSizeInBits().getFixedValue());
  Value *Bits = B.CreateBitCast(Y, IntTy);
  Value *Flipped =
      B.CreateBitCast(B.CreateXor(Bits, ConstantInt::get(IntTy, 1)), T);
  return B.CreateUnaryIntrinsic(Intrinsic::fabs, B.CreateFSub(Y, Flipped),
                                nullptr, "ulp");
}

Value *ForwardModeSynthesizer::propagatedError(Instruction &PI,
                                               const DerivativeRule *Rule,
                                               IRBuilderBase &B) {
  Type *Ty = PI.getType();
  if (!Ty->isFPOrFPVectorTy())
    return nullptr; // Rejected by SupportedInstructions.
  Value *Y = primal(&PI);
  Value *Sum = nullptr;
  // |err(a) * a / y * partial|, in the type of y.
  auto AddTerm = [&](Value *Op, Value *Partial) {
    Value *Err = tangent(Op), *A = primal(Op);
    if (Op->getType() != Ty) { // fptrunc: the operand is wider
      Err = B.CreateFPCast(Err, Ty);
      A = B.CreateFPCast(A, Ty);
    }
    Value *Rel = B.CreateFDiv(B.CreateFMul(Err, A), Y);
    if (Partial)
      Rel = B.CreateFMul(Rel, Partial);
    Value *Term = B.CreateUnaryIntrinsic(Intrinsic::fabs, Rel);
    Sum = Sum ? B.CreateFAdd(Sum, Term) : Term;
  };
  if (Rule) {
    SmallVector<Value *, 3> Ops(PI.operands().begin(),
                                PI.operands().begin() + Rule->NumOperands);
    auto Lookup = [&](Value *V) { return primal(V); };
    PartialEmitter E(B, Ops, &PI, Lookup);
    for (unsigned I = 0; I < Rule->NumOperands; ++I)
      if (AI.isActive(Ops[I]))
        if (Value *Partial = Rule->Partial(E, I))
          AddTerm(Ops[I], Partial);
  } else if (isa<FPExtInst>(PI)) {
    // Exact: the operand's error, in the wider type.
    return B.CreateFPExt(tangent(PI.getOperand(0)), Ty);
  } else if (isa<FPTruncInst>(PI)) {
    AddTerm(PI.getOperand(0), nullptr);
  } else {
    return nullptr; // Rejected by SupportedInstructions.
  }
  if (!Sum)
    Sum = Constant::getNullValue(Ty);
  if (isExact(PI, Rule))
    return Sum;
  return B.CreateBinaryIntrinsic(Intrinsic::maxnum, unitInLastPlace(B, Y), Sum);
}

} // namespace tapestry
