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
#include "llvm/IR/Module.h"

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
      .Case("nextafter", true)
      .Cases("ldexp", "scalbn", "scalbln", "frexp", "modf", true)
      .Cases("floor", "ceil", "round", "roundeven", "trunc", true)
      .Cases("rint", "nearbyint", "remainder", "remquo", true)
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

Function *ForwardModeSynthesizer::errorLogger(Module &M) {
  Function *Log = M.getFunction("enzymeLogError");
  if (!Log || Log->isDeclaration())
    return nullptr;
  FunctionType *FT = Log->getFunctionType();
  if (FT->getNumParams() != 7 || !FT->getParamType(0)->isDoubleTy() ||
      !FT->getParamType(1)->isDoubleTy())
    return nullptr;
  for (unsigned I = 2; I < 7; ++I)
    if (!FT->getParamType(I)->isPointerTy())
      return nullptr;
  return Log;
}

/// Calls the program's enzymeLogError, if any, with the result \p Y of
/// \p PI, its error \p Err, and where it is: the opcode, the callee of a
/// call, the module, the function and the block.
static void logError(Instruction &PI, Value *Y, Value *Err, IRBuilderBase &B) {
  Function *Log = ForwardModeSynthesizer::errorLogger(*PI.getModule());
  if (!Log || !Y->getType()->isFloatingPointTy())
    return;
  auto *CB = dyn_cast<CallBase>(&PI);
  Function *Callee = CB ? CB->getCalledFunction() : nullptr;
  auto Str = [&](StringRef S) { return B.CreateGlobalStringPtr(S); };
  Type *Double = B.getDoubleTy();
  B.CreateCall(
      Log, {B.CreateFPCast(Y, Double), B.CreateFPCast(Err, Double),
            Str(PI.getOpcodeName()), Str(Callee ? Callee->getName() : ""),
            Str(PI.getModule()->getModuleIdentifier()),
            Str(PI.getFunction()->getName()), Str(PI.getParent()->getName())});
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
  Value *Err = isExact(PI, Rule)
                   ? Sum
                   : B.CreateBinaryIntrinsic(Intrinsic::maxnum,
                                             unitInLastPlace(B, Y), Sum);
  logError(PI, Y, Err, B);
  return Err;
}

} // namespace tapestry
