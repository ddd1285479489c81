//===- DerivativeRules.cpp - The rules table and its emitter --------------===//
//
// Implements DerivativeRules.h: PartialEmitter, the IR builder the entries of
// Core/DerivativeRules.def are written in (arithmetic that folds the constants
// 0 and 1, intrinsic and libm calls per lane, helpers such as digamma), and the
// table expanded from the .def with its lookups (findInstructionRule,
// findCallRule, findLibraryRule). Both synthesizers call the rules; which calls
// count as math functions is decided in Core/MathFunctions.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/DerivativeRules.h"

#include "Core/MathFunctions.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

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

Value *PartialEmitter::unaryOfArg(Intrinsic::ID IID, unsigned I) {
  assert(I < Operands.size() && "rule reads a missing operand");
  Value *X = Operands[I];
  auto *PI = dyn_cast<Instruction>(Result);
  if (PI && !isa<Constant>(X))
    for (User *U : X->users()) {
      auto *CB = dyn_cast<CallInst>(U);
      if (!CB || CB == PI || CB->getParent() != PI->getParent() ||
          CB->getType() != PI->getType() || CB->arg_size() != 1 ||
          (!AfterWholeBlock && !CB->comesBefore(PI)))
        continue;
      const MathFunction *MF = findMathFunction(*CB);
      if (MF && MF->IID == IID && !mathWritesMemory(*CB))
        return Lookup(CB);
    }
  return unary(IID, arg(I));
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

Value *PartialEmitter::intToFP(Value *I) {
  // llvm.powi.v4f64.i32 raises every lane to one scalar exponent.
  Type *T = fpType();
  auto *VT = dyn_cast<VectorType>(T);
  if (!VT || I->getType()->isVectorTy())
    return B.CreateSIToFP(I, T);
  return B.CreateVectorSplat(VT->getElementCount(),
                             B.CreateSIToFP(I, VT->getElementType()));
}

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

/// The C library's suffix for a function of \p T: "f" for float, "l" for
/// long double, "" for double.
static StringRef librarySuffix(Type *T) {
  if (T->isFloatTy())
    return "f";
  if (T->isX86_FP80Ty() || T->isFP128Ty() || T->isPPC_FP128Ty())
    return "l";
  return "";
}

/// Calls \p Callee on \p A, lane by lane if \p A is a vector.
static Value *callPerLane(IRBuilderBase &B, FunctionCallee Callee, Value *A) {
  auto *VT = dyn_cast<FixedVectorType>(A->getType());
  if (!VT)
    return B.CreateCall(Callee, {A});
  Value *R = PoisonValue::get(VT);
  for (unsigned I = 0; I < VT->getNumElements(); ++I)
    R = B.CreateInsertElement(
        R, B.CreateCall(Callee, {B.CreateExtractElement(A, I)}), I);
  return R;
}

Value *PartialEmitter::libcall(StringRef Base, Value *A) {
  Type *T = A->getType()->getScalarType();
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee F = M.getOrInsertFunction((Base + librarySuffix(T)).str(),
                                           FunctionType::get(T, {T}, false));
  return callPerLane(B, F, A);
}

/// Defines psi(x) of type \p T: the recurrence psi(x) = psi(x + 1) - 1/x
/// up to x >= 10, then the asymptotic series (relative error ~1e-14); for
/// x < 0 first the reflection psi(x) = psi(1 - x) - pi / tan(pi x).
static Function *digammaHelper(Module &M, Type *T) {
  std::string Name = ("tapestry.digamma." + librarySuffix(T)).str();
  if (librarySuffix(T).empty())
    Name += "d";
  if (Function *F = M.getFunction(Name))
    return F;
  Function *F = Function::Create(FunctionType::get(T, {T}, false),
                                 GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(Attribute::WillReturn);
  F->setMemoryEffects(MemoryEffects::none());
  LLVMContext &C = M.getContext();
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F),
             *Loop = BasicBlock::Create(C, "loop", F),
             *Step = BasicBlock::Create(C, "step", F),
             *Tail = BasicBlock::Create(C, "series", F);
  auto K = [&](double V) { return ConstantFP::get(T, V); };
  IRBuilder<> B(Entry);
  Value *X = F->getArg(0);
  Value *Neg = B.CreateFCmpOLT(X, K(0.0));
  Value *Pi = K(3.14159265358979323846);
  Value *Reflect = B.CreateFNeg(B.CreateFDiv(
      Pi, B.CreateUnaryIntrinsic(Intrinsic::tan, B.CreateFMul(Pi, X))));
  Value *X0 = B.CreateSelect(Neg, B.CreateFSub(K(1.0), X), X);
  Value *Acc0 = B.CreateSelect(Neg, Reflect, K(0.0));
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *XV = B.CreatePHI(T, 2), *Acc = B.CreatePHI(T, 2);
  B.CreateCondBr(B.CreateFCmpOLT(XV, K(10.0)), Step, Tail);
  B.SetInsertPoint(Step);
  Value *AccN = B.CreateFSub(Acc, B.CreateFDiv(K(1.0), XV));
  Value *XN = B.CreateFAdd(XV, K(1.0));
  B.CreateBr(Loop);
  XV->addIncoming(X0, Entry);
  XV->addIncoming(XN, Step);
  Acc->addIncoming(Acc0, Entry);
  Acc->addIncoming(AccN, Step);
  B.SetInsertPoint(Tail);
  Value *Inv = B.CreateFDiv(K(1.0), XV);
  Value *F2 = B.CreateFMul(Inv, Inv);
  // 1/12 - f(1/120 - f(1/252 - f(1/240 - f/132))), f = 1/x^2.
  Value *S = K(1.0 / 132);
  for (double Coef : {1.0 / 240, 1.0 / 252, 1.0 / 120, 1.0 / 12})
    S = B.CreateFSub(K(Coef), B.CreateFMul(F2, S));
  Value *R = B.CreateFSub(B.CreateUnaryIntrinsic(Intrinsic::log, XV),
                          B.CreateFMul(K(0.5), Inv));
  R = B.CreateFSub(R, B.CreateFMul(F2, S));
  B.CreateRet(B.CreateFAdd(Acc, R));
  return F;
}

Value *PartialEmitter::digamma(Value *A) {
  Module &M = *B.GetInsertBlock()->getModule();
  return callPerLane(B, digammaHelper(M, A->getType()->getScalarType()), A);
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
