//===- DerivativeRules.cpp - The rules table and its emitter --------------===//
#include "Synthesis/DerivativeRules.h"

#include "Core/MathFunctions.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace tapestry {

//===----------------------------------------------------------------------===//
// PartialEmitter
//===----------------------------------------------------------------------===//

Value *PartialEmitter::arg(unsigned I) {
  assert(I < Operands.size() && "rule reads a missing operand");
  return Lookup(Operands[I]);
}

Value *PartialEmitter::result() { return Lookup(Result); }

Value *PartialEmitter::zero() { return ConstantFP::get(fpType(), 0.0); }
Value *PartialEmitter::one() { return ConstantFP::get(fpType(), 1.0); }
Value *PartialEmitter::minusOne() { return ConstantFP::get(fpType(), -1.0); }
Value *PartialEmitter::constant(double C) {
  return ConstantFP::get(fpType(), C);
}

static bool isFPConstant(Value *V, double C) {
  if (auto *CF = dyn_cast<ConstantFP>(V))
    return CF->isExactlyValue(C);
  if (auto *CV = dyn_cast<Constant>(V))
    if (auto *Splat = dyn_cast_or_null<ConstantFP>(CV->getSplatValue()))
      return Splat->isExactlyValue(C);
  return false;
}

Value *PartialEmitter::ln2() {
  return ConstantFP::get(fpType(), "0.693147180559945309417232121458176568");
}
Value *PartialEmitter::ln10() {
  return ConstantFP::get(fpType(), "2.30258509299404568401799145468436421");
}
Value *PartialEmitter::twoOverSqrtPi() {
  return ConstantFP::get(fpType(), "1.12837916709551257389615890312154517");
}

Value *PartialEmitter::add(Value *A, Value *C) {
  if (isFPConstant(A, 0.0))
    return C;
  if (isFPConstant(C, 0.0))
    return A;
  return B.CreateFAdd(A, C);
}

Value *PartialEmitter::sub(Value *A, Value *C) {
  if (isFPConstant(C, 0.0))
    return A;
  return B.CreateFSub(A, C);
}

Value *PartialEmitter::mul(Value *A, Value *C) {
  if (isFPConstant(A, 1.0))
    return C;
  if (isFPConstant(C, 1.0))
    return A;
  if (isFPConstant(A, -1.0))
    return neg(C);
  if (isFPConstant(C, -1.0))
    return neg(A);
  return B.CreateFMul(A, C);
}

Value *PartialEmitter::div(Value *A, Value *C) {
  if (isFPConstant(C, 1.0))
    return A;
  return B.CreateFDiv(A, C);
}

Value *PartialEmitter::neg(Value *A) {
  if (isFPConstant(A, 1.0))
    return minusOne();
  if (isFPConstant(A, -1.0))
    return one();
  return B.CreateFNeg(A);
}

Value *PartialEmitter::unary(Intrinsic::ID IID, Value *A) {
  return B.CreateUnaryIntrinsic(IID, A);
}

Value *PartialEmitter::binary(Intrinsic::ID IID, Value *A, Value *C) {
  return B.CreateBinaryIntrinsic(IID, A, C);
}

Value *PartialEmitter::selectIfZero(Value *V, Value *IfZero, Value *Otherwise) {
  Value *IsZero = B.CreateFCmpOEQ(V, Constant::getNullValue(V->getType()));
  return B.CreateSelect(IsZero, IfZero, Otherwise);
}

Value *PartialEmitter::unitWithSignOf(Value *V) {
  return B.CreateBinaryIntrinsic(Intrinsic::copysign, one(), V);
}

Value *PartialEmitter::lessThan(Value *A, Value *C) {
  return B.CreateFCmpOLT(A, C);
}

Value *PartialEmitter::orIsNaN(Value *Cond, Value *X) {
  return B.CreateOr(Cond, B.CreateFCmpUNO(X, X));
}

Value *PartialEmitter::pick(Value *Cond, Value *IfTrue, Value *IfFalse) {
  return B.CreateSelect(Cond, IfTrue, IfFalse);
}

Value *PartialEmitter::intToFP(Value *I) { return B.CreateSIToFP(I, fpType()); }

Value *PartialEmitter::intSub1(Value *I) {
  return B.CreateSub(I, ConstantInt::get(I->getType(), 1));
}

Value *PartialEmitter::powi(Value *X, Value *N) {
  return B.CreateIntrinsic(Intrinsic::powi, {X->getType(), N->getType()},
                           {X, N});
}

Value *PartialEmitter::ldexp(Value *X, Value *N) {
  // scalbln's long exponent: any beyond +-65536 over- or underflows anyway.
  if (N->getType()->getIntegerBitWidth() > 32) {
    Type *T = N->getType();
    N = B.CreateTrunc(B.CreateBinaryIntrinsic(
                          Intrinsic::smin,
                          B.CreateBinaryIntrinsic(Intrinsic::smax, N,
                                                  ConstantInt::get(T, -65536)),
                          ConstantInt::get(T, 65536)),
                      B.getInt32Ty());
  }
  return B.CreateIntrinsic(Intrinsic::ldexp, {X->getType(), N->getType()},
                           {X, N});
}

//===----------------------------------------------------------------------===//
// The table, expanded from DerivativeRules.def.
//===----------------------------------------------------------------------===//

#define X0 E.arg(0)
#define X1 E.arg(1)
#define X2 E.arg(2)
#define Y E.result()

namespace {
#define TAPESTRY_INST(Opcode, N, D0, D1)                                       \
  Value *partial##Opcode(PartialEmitter &E, unsigned ArgNo) {                  \
    (void)E;                                                                   \
    switch (ArgNo) {                                                           \
    case 0:                                                                    \
      return D0;                                                               \
    case 1:                                                                    \
      return D1;                                                               \
    }                                                                          \
    return nullptr;                                                            \
  }
#define TAPESTRY_MATH(Name, IID, Lib, N, D0, D1, D2)                           \
  Value *partial_##Name(PartialEmitter &E, unsigned ArgNo) {                   \
    (void)E;                                                                   \
    switch (ArgNo) {                                                           \
    case 0:                                                                    \
      return D0;                                                               \
    case 1:                                                                    \
      return D1;                                                               \
    case 2:                                                                    \
      return D2;                                                               \
    }                                                                          \
    return nullptr;                                                            \
  }
#include "Core/DerivativeRules.def"
} // namespace

#undef X0
#undef X1
#undef X2
#undef Y

namespace {
struct InstructionRule {
  unsigned Opcode;
  DerivativeRule Rule;
};

const InstructionRule InstructionRules[] = {
#define TAPESTRY_INST(Opcode, N, D0, D1)                                       \
  {Instruction::Opcode,                                                        \
   {#Opcode, N, Intrinsic::not_intrinsic, "", partial##Opcode}},
#include "Core/DerivativeRules.def"
};

const DerivativeRule MathRules[] = {
#define TAPESTRY_MATH(Name, IID, Lib, N, D0, D1, D2)                           \
  {#Name, N, IID, Lib, partial_##Name},
#include "Core/DerivativeRules.def"
};
} // namespace

const DerivativeRule *findInstructionRule(unsigned Opcode) {
  for (const InstructionRule &R : InstructionRules)
    if (R.Opcode == Opcode)
      return &R.Rule;
  return nullptr;
}

ArrayRef<DerivativeRule> mathRules() { return MathRules; }

/// The rule of a math-table entry: both tables come from the same .def in
/// the same order.
static const DerivativeRule *ruleOf(const MathFunction *M) {
  if (!M)
    return nullptr;
  return &MathRules[M - mathFunctions().data()];
}

const DerivativeRule *findLibraryRule(StringRef Name) {
  return ruleOf(findMathLibraryFunction(Name));
}

const DerivativeRule *findCallRule(const CallBase &CB) {
  return ruleOf(findMathFunction(CB));
}

} // namespace tapestry
