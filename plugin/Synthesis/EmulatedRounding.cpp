//===- EmulatedRounding.cpp - Floating-point formats the target lacks -----===//
//
// Implements EmulatedRounding.h: the Emulation class writes the
// __tapestry_fpround.* helpers into the module (the exact error of each
// operation by TwoSum, Dekker's product and the remainders, then the correction
// that rounds the result once to the target format, and integer conversions).
// roundToLayout is what Synthesis/FloatTruncation calls; emulationError is the
// message Passes/TruncateRequest gives for a format it cannot emulate.
// Core/KnownInactive knows the helpers by their prefix, so a derivative never
// differentiates them.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/EmulatedRounding.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

namespace {

const char *const HelperPrefix = "__tapestry_fpround.";

/// Bits of the IEEE format of \p T: precision with the hidden bit, bias.
struct Ieee {
  int Precision;
  int Bias;
  explicit Ieee(Type *T)
      : Precision(APFloat::semanticsPrecision(T->getFltSemantics())),
        Bias(APFloat::semanticsMaxExponent(T->getFltSemantics())) {}
  int mantissa() const { return Precision - 1; }
  int exponentBits(Type *T) const {
    return T->getPrimitiveSizeInBits() - Precision;
  }
  int minExponent() const { return 1 - Bias; }
};

/// The largest finite value of \p L, as a double.
APFloat maxFinite(FloatLayout L) {
  APFloat Ulp = scalbn(APFloat(1.0), -L.Mantissa, APFloat::rmNearestTiesToEven);
  return scalbn(APFloat(2.0) - Ulp, (1 << (L.Exponent - 1)) - 1,
                APFloat::rmNearestTiesToEven);
}

std::string typeTag(Type *T) {
  return T->isDoubleTy() ? "f64" : T->isFloatTy() ? "f32" : "f16";
}

/// Builds the rounding helpers of one format for one FROM type. The work
/// type W is FROM, or float for half (products of halves are exact there
/// and its exponent range has room for every scaling below).
class Emulation {
public:
  Emulation(Module &M, Type *From, FloatLayout L)
      : M(M), Ctx(M.getContext()), From(From),
        W(From->isHalfTy() ? Type::getFloatTy(Ctx) : From),
        IW(IntegerType::get(Ctx, W->getPrimitiveSizeInBits())),
        I32(Type::getInt32Ty(Ctx)), L(L), WF(W), P(WF.Precision),
        EminT(2 - (1 << (L.Exponent - 1))), EmaxT((1 << (L.Exponent - 1)) - 1) {
  }

  /// The function returning the correction R - plain of \p Op, where R is
  /// the rounded result (parameters: the operands, then plain).
  Function *operation(EmulatedOp Op);
  /// The correction of a FROM value: its rounding minus itself.
  Function *rounding();
  /// The correction of a conversion from an integer of type \p IntTy.
  Function *intConversion(IntegerType *IntTy, bool Signed);

private:
  /// round(Y + a value of the sign of S, far below Y's last bit, times
  /// 2^K) to the format, in W; Y's last bit made odd if S is not zero.
  Function *core();
  Function *declare(StringRef Suffix, ArrayRef<Type *> Params, Type *Result,
                    bool &Exists);
  ConstantInt *iw(uint64_t V) { return ConstantInt::get(IW, V); }
  ConstantInt *i32(int64_t V) { return ConstantInt::getSigned(I32, V); }
  Constant *wf(double V) { return ConstantFP::get(W, V); }
  Value *isFinite(IRBuilderBase &B, Value *X) {
    return B.CreateFCmpOLT(B.CreateUnaryIntrinsic(Intrinsic::fabs, X),
                           ConstantFP::getInfinity(W));
  }
  /// 2^N for N in W's normal range.
  Value *pow2(IRBuilderBase &B, Value *N) {
    return B.CreateBitCast(
        B.CreateShl(B.CreateZExt(B.CreateAdd(N, i32(WF.Bias)), IW), P - 1), W);
  }
  /// Mantissa in [0.5, 1) with X's sign, and exponent, of a finite
  /// nonzero X (subnormals included).
  std::pair<Value *, Value *> frexp(IRBuilderBase &B, Value *X);
  std::pair<Value *, Value *> twoSum(IRBuilderBase &B, Value *A, Value *C);
  /// Dekker's exact product of values near 1.
  std::pair<Value *, Value *> twoProduct(IRBuilderBase &B, Value *X, Value *Y);
  Value *split(IRBuilderBase &B, Value *X, Value *&Lo);
  /// The correction R - Plain (R in W), zero where they are equal (as
  /// infinities are).
  Value *correction(IRBuilderBase &B, Value *R, Value *Plain);
  Value *toW(IRBuilderBase &B, Value *X) { return B.CreateFPExt(X, W); }
  void buildOperation(IRBuilderBase &B, EmulatedOp Op, Function *F);

  Module &M;
  LLVMContext &Ctx;
  Type *From, *W;
  IntegerType *IW, *I32;
  FloatLayout L;
  Ieee WF;
  int P;            ///< W's precision.
  int EminT, EmaxT; ///< The format's exponent range.
};

} // namespace

std::string layoutTag(FloatLayout L) {
  return "e" + std::to_string(L.Exponent) + "m" + std::to_string(L.Mantissa);
}

std::string emulationError(Type *From, FloatLayout L) {
  if (!From->isDoubleTy() && !From->isFloatTy() && !From->isHalfTy())
    return "Tapestry emulates formats with double, float or half values";
  Ieee F(From);
  int FromExponent = F.exponentBits(From), FromMantissa = F.mantissa();
  std::string Layout = std::to_string(L.Exponent) + " exponent and " +
                       std::to_string(L.Mantissa) + " mantissa bits";
  if (L.Exponent < 2 || L.Exponent > FromExponent)
    return "a format with " + Layout + " needs 2 to " +
           std::to_string(FromExponent) + " exponent bits when truncating " +
           "from a format with " + std::to_string(FromExponent);
  if (L.Mantissa < 1)
    return "a format with " + Layout +
           " has no mantissa bits; it needs at "
           "least 1";
  if (L.Mantissa > FromMantissa - 2)
    return "a format with " + Layout + " needs 1 to " +
           std::to_string(FromMantissa - 2) +
           " mantissa bits when truncating from a format with " +
           std::to_string(FromMantissa) +
           ": Tapestry emulates it with correctly rounded operations at the "
           "wider precision, which needs 2 more bits than the format has "
           "(rounding twice would otherwise be wrong in ties)";
  return "";
}

bool isEmulationHelper(const Function &F) {
  return F.getName().starts_with(HelperPrefix);
}

Function *Emulation::declare(StringRef Suffix, ArrayRef<Type *> Params,
                             Type *Result, bool &Exists) {
  std::string Name =
      (HelperPrefix + layoutTag(L) + "." + typeTag(From) + "." + Suffix).str();
  Exists = false;
  if (Function *F = M.getFunction(Name)) {
    Exists = true;
    return F;
  }
  Function *F = Function::Create(FunctionType::get(Result, Params, false),
                                 GlobalValue::InternalLinkage, Name, M);
  F->setDoesNotThrow();
  F->setWillReturn();
  F->setDoesNotAccessMemory();
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(Attribute::Speculatable);
  BasicBlock::Create(Ctx, "entry", F);
  return F;
}

std::pair<Value *, Value *> Emulation::frexp(IRBuilderBase &B, Value *X) {
  Value *Bits = B.CreateBitCast(X, IW);
  uint64_t ExpOnes = (uint64_t(1) << WF.exponentBits(W)) - 1;
  Value *Field = B.CreateAnd(B.CreateLShr(Bits, P - 1), iw(ExpOnes));
  // A subnormal times 2^P is normal.
  Value *Sub = B.CreateICmpEQ(Field, iw(0));
  Value *Scaled = B.CreateSelect(Sub, B.CreateFMul(X, pow2(B, i32(P))), X);
  Value *SBits = B.CreateBitCast(Scaled, IW);
  Value *SField = B.CreateLShr(B.CreateShl(SBits, 1), P); // no sign
  Value *E = B.CreateSub(B.CreateTrunc(SField, I32), i32(WF.Bias - 1));
  E = B.CreateSub(E, B.CreateSelect(Sub, i32(P), i32(0)));
  uint64_t ExpMask = ExpOnes << (P - 1);
  Value *MBits = B.CreateOr(B.CreateAnd(SBits, iw(~ExpMask)),
                            iw(uint64_t(WF.Bias - 1) << (P - 1)));
  return {B.CreateBitCast(MBits, W), E};
}

std::pair<Value *, Value *> Emulation::twoSum(IRBuilderBase &B, Value *A,
                                              Value *C) {
  Value *S = B.CreateFAdd(A, C);
  Value *CC = B.CreateFSub(S, A);
  Value *AA = B.CreateFSub(S, CC);
  Value *E = B.CreateFAdd(B.CreateFSub(A, AA), B.CreateFSub(C, CC));
  return {S, E};
}

Value *Emulation::split(IRBuilderBase &B, Value *X, Value *&Lo) {
  double Factor = double(uint64_t(1) << ((P + 1) / 2)) + 1;
  Value *C = B.CreateFMul(wf(Factor), X);
  Value *Hi = B.CreateFSub(C, B.CreateFSub(C, X));
  Lo = B.CreateFSub(X, Hi);
  return Hi;
}

std::pair<Value *, Value *> Emulation::twoProduct(IRBuilderBase &B, Value *X,
                                                  Value *Y) {
  Value *P0 = B.CreateFMul(X, Y);
  Value *XL, *YL;
  Value *XH = split(B, X, XL), *YH = split(B, Y, YL);
  Value *E = B.CreateFSub(B.CreateFMul(XH, YH), P0);
  E = B.CreateFAdd(E, B.CreateFMul(XH, YL));
  E = B.CreateFAdd(E, B.CreateFMul(XL, YH));
  E = B.CreateFAdd(E, B.CreateFMul(XL, YL));
  return {P0, E};
}

Function *Emulation::core() {
  bool Exists;
  Function *F = declare("core", {W, W, I32}, W, Exists);
  if (Exists)
    return F;
  IRBuilder<> B(&F->getEntryBlock());
  Value *Y = F->getArg(0), *S = F->getArg(1), *K = F->getArg(2);
  unsigned Width = IW->getBitWidth();
  uint64_t SignMask = uint64_t(1) << (Width - 1);
  uint64_t InfBits =
      APFloat::getInf(W->getFltSemantics()).bitcastToAPInt().getZExtValue();
  Value *Bits = B.CreateBitCast(Y, IW);
  Value *Mag = B.CreateAnd(Bits, iw(SignMask - 1));
  Value *Special = B.CreateOr(B.CreateICmpUGE(Mag, iw(InfBits)),
                              B.CreateICmpEQ(Mag, iw(0)), "special");
  // Round to odd at W's precision: Y is the nearest (or a faithful)
  // rounding; a nonzero S says the exact value lies beyond it.
  Value *Sticky = B.CreateFCmpONE(S, wf(0));
  Value *Even = B.CreateICmpEQ(B.CreateAnd(Mag, iw(1)), iw(0));
  Value *SameSign = B.CreateICmpEQ(
      B.CreateAnd(B.CreateXor(B.CreateBitCast(S, IW), Bits), iw(SignMask)),
      iw(0));
  Value *Step = B.CreateSelect(SameSign, iw(1), Constant::getAllOnesValue(IW));
  Mag = B.CreateAdd(Mag, B.CreateSelect(B.CreateAnd(Sticky, Even), Step, iw(0)),
                    "odd");
  // The significand and exponent of the odd value.
  Value *Field = B.CreateLShr(Mag, P - 1);
  Value *Normal = B.CreateICmpNE(Field, iw(0));
  Value *Sig = B.CreateSelect(
      Normal,
      B.CreateOr(B.CreateAnd(Mag, iw((uint64_t(1) << (P - 1)) - 1)),
                 iw(uint64_t(1) << (P - 1))),
      Mag, "sig");
  Value *Ey = B.CreateSub(
      B.CreateTrunc(B.CreateSelect(Normal, Field, iw(1)), I32), i32(WF.Bias));
  Value *E = B.CreateAdd(Ey, K, "exponent");
  Value *Overflow = B.CreateICmpSGT(E, i32(EmaxT));
  // The format's quantum at this exponent, relative to Sig's last bit.
  Value *Qe =
      B.CreateSub(B.CreateBinaryIntrinsic(Intrinsic::smax, E, i32(EminT)),
                  i32(L.Mantissa), "quantum");
  Value *UlpExp = B.CreateSub(Ey, i32(P - 1));
  Value *D = B.CreateSub(B.CreateSub(Qe, K), UlpExp);
  D = B.CreateBinaryIntrinsic(
      Intrinsic::smin, B.CreateBinaryIntrinsic(Intrinsic::smax, D, i32(0)),
      i32(P + 1), nullptr, "drop");
  Value *DW = B.CreateZExt(D, IW);
  Value *Q = B.CreateLShr(Sig, DW);
  Value *One = B.CreateShl(iw(1), DW);
  Value *Rem = B.CreateAnd(Sig, B.CreateSub(One, iw(1)));
  Value *Half = B.CreateLShr(One, 1);
  Value *Tie = B.CreateAnd(
      B.CreateAnd(B.CreateICmpEQ(Rem, Half), B.CreateICmpNE(D, i32(0))),
      B.CreateTrunc(Q, B.getInt1Ty()));
  Value *Up = B.CreateOr(B.CreateICmpUGT(Rem, Half), Tie);
  Value *R = B.CreateAdd(Q, B.CreateZExt(Up, IW), "rounded");
  // R * 2^Unit, 2^Unit possibly subnormal in W.
  Value *Unit = B.CreateAdd(B.CreateAdd(UlpExp, D), K);
  Value *SubShift = B.CreateBinaryIntrinsic(
      Intrinsic::smin,
      B.CreateBinaryIntrinsic(Intrinsic::smax,
                              B.CreateAdd(Unit, i32(P - 1 - WF.minExponent())),
                              i32(0)),
      i32(Width - 1));
  Value *PowBits = B.CreateSelect(
      B.CreateICmpSGE(Unit, i32(WF.minExponent())),
      B.CreateShl(B.CreateZExt(B.CreateAdd(Unit, i32(WF.Bias)), IW), P - 1),
      B.CreateShl(iw(1), B.CreateZExt(SubShift, IW)));
  Value *Val = B.CreateFMul(B.CreateUIToFP(R, W), B.CreateBitCast(PowBits, W));
  APFloat MaxT = maxFinite(L);
  bool Lost;
  MaxT.convert(W->getFltSemantics(), APFloat::rmNearestTiesToEven, &Lost);
  Value *Big =
      B.CreateOr(Overflow, B.CreateFCmpOGT(Val, ConstantFP::get(Ctx, MaxT)));
  Val = B.CreateSelect(Big, ConstantFP::getInfinity(W), Val);
  Val = B.CreateBinaryIntrinsic(Intrinsic::copysign, Val, Y);
  B.CreateRet(B.CreateSelect(Special, Y, Val));
  return F;
}

Value *Emulation::correction(IRBuilderBase &B, Value *R, Value *Plain) {
  if (W != From)
    R = B.CreateFPTrunc(R, From); // a value of the format: exact
  return B.CreateSelect(B.CreateFCmpOEQ(R, Plain), ConstantFP::get(From, 0),
                        B.CreateFSub(R, Plain));
}

Function *Emulation::rounding() {
  bool Exists;
  Function *F = declare("round", {From}, From, Exists);
  if (Exists)
    return F;
  IRBuilder<> B(&F->getEntryBlock());
  Value *X = F->getArg(0);
  Value *R = B.CreateCall(core(), {toW(B, X), wf(0), i32(0)});
  B.CreateRet(correction(B, R, X));
  return F;
}

Function *Emulation::intConversion(IntegerType *IntTy, bool Signed) {
  bool Exists;
  Function *F = declare(
      (Twine(Signed ? "sitofp.i" : "uitofp.i") + Twine(IntTy->getBitWidth()))
          .str(),
      {IntTy, From}, From, Exists);
  if (Exists)
    return F;
  IRBuilder<> B(&F->getEntryBlock());
  Value *X = F->getArg(0), *Plain = F->getArg(1);
  Type *I64 = B.getInt64Ty();
  Value *Neg =
      Signed ? B.CreateICmpSLT(X, ConstantInt::get(IntTy, 0)) : B.getFalse();
  Value *Abs = B.CreateSelect(Neg, B.CreateNeg(X), X);
  Value *U = B.CreateZExt(Abs, I64);
  // Round U to the format's precision in integers, then convert exactly.
  Value *Bits =
      B.CreateSub(B.getInt64(64),
                  B.CreateBinaryIntrinsic(Intrinsic::ctlz, U, B.getFalse()));
  Value *D = B.CreateBinaryIntrinsic(Intrinsic::usub_sat, Bits,
                                     B.getInt64(L.Mantissa + 1));
  Value *Q = B.CreateLShr(U, D);
  Value *One = B.CreateShl(B.getInt64(1), D);
  Value *Rem = B.CreateAnd(U, B.CreateSub(One, B.getInt64(1)));
  Value *Half = B.CreateLShr(One, 1);
  Value *Tie = B.CreateAnd(
      B.CreateAnd(B.CreateICmpEQ(Rem, Half), B.CreateICmpNE(D, B.getInt64(0))),
      B.CreateTrunc(Q, B.getInt1Ty()));
  Value *R = B.CreateAdd(
      Q, B.CreateZExt(B.CreateOr(B.CreateICmpUGT(Rem, Half), Tie), I64));
  Value *V = B.CreateFMul(B.CreateUIToFP(R, W), pow2(B, B.CreateTrunc(D, I32)));
  V = B.CreateSelect(Neg, B.CreateFNeg(V), V);
  // Exact unless it overflows the format: core() says which.
  Value *Rounded = B.CreateCall(core(), {V, wf(0), i32(0)});
  B.CreateRet(correction(B, Rounded, Plain));
  return F;
}

Function *Emulation::operation(EmulatedOp Op) {
  static const char *const Names[] = {"add", "sub",  "mul",
                                      "div", "sqrt", "fma"};
  unsigned N = Op == EmulatedOp::Sqrt ? 1 : Op == EmulatedOp::FMA ? 3 : 2;
  SmallVector<Type *, 4> Params(N + 1, From);
  bool Exists;
  Function *F = declare(Names[unsigned(Op)], Params, From, Exists);
  if (!Exists) {
    IRBuilder<> B(&F->getEntryBlock());
    buildOperation(B, Op, F);
  }
  return F;
}

void Emulation::buildOperation(IRBuilderBase &B, EmulatedOp Op, Function *F) {
  SmallVector<Value *, 3> A;
  for (unsigned I = 0; I + 1 < F->arg_size(); ++I)
    A.push_back(toW(B, F->getArg(I)));
  Value *Plain = F->getArg(F->arg_size() - 1);
  Value *Zero = wf(0);
  auto IsZero = [&](Value *X) { return B.CreateFCmpOEQ(X, Zero); };
  Value *Rounded = nullptr;
  switch (Op) {
  case EmulatedOp::Add:
  case EmulatedOp::Sub: {
    // TwoSum is exact; an infinite sum has a NaN error, taken as none.
    Value *C = Op == EmulatedOp::Sub ? B.CreateFNeg(A[1]) : A[1];
    auto [S, E] = twoSum(B, A[0], C);
    Rounded = B.CreateCall(core(), {S, E, i32(0)});
    break;
  }
  case EmulatedOp::Mul:
  case EmulatedOp::Div: {
    // Zeros, infinities and NaNs give exact results.
    Value *Special = B.CreateOr(
        B.CreateOr(IsZero(A[0]), IsZero(A[1])),
        B.CreateNot(B.CreateAnd(isFinite(B, A[0]), isFinite(B, A[1]))));
    auto [MA, EA] = frexp(B, A[0]);
    auto [MB, EB] = frexp(B, A[1]);
    Value *Y, *S, *K;
    if (Op == EmulatedOp::Mul) {
      std::tie(Y, S) = twoProduct(B, MA, MB);
      K = B.CreateAdd(EA, EB);
    } else {
      // The remainder MA - Y * MB has the sign of the error times MB's.
      Y = B.CreateFDiv(MA, MB);
      auto [PH, PL] = twoProduct(B, Y, MB);
      Value *Rem = B.CreateFSub(B.CreateFSub(MA, PH), PL);
      S = B.CreateFMul(Rem, MB);
      K = B.CreateSub(EA, EB);
    }
    Value *Plain0 = Op == EmulatedOp::Mul ? B.CreateFMul(A[0], A[1])
                                          : B.CreateFDiv(A[0], A[1]);
    Rounded = B.CreateSelect(Special, Plain0, B.CreateCall(core(), {Y, S, K}));
    break;
  }
  case EmulatedOp::Sqrt: {
    Value *Special =
        B.CreateOr(B.CreateFCmpULE(A[0], Zero), B.CreateNot(isFinite(B, A[0])));
    auto [M0, E0] = frexp(B, A[0]);
    Value *Odd = B.CreateTrunc(E0, B.getInt1Ty());
    Value *MM = B.CreateSelect(Odd, B.CreateFMul(M0, wf(2)), M0);
    Value *EE = B.CreateSelect(Odd, B.CreateSub(E0, i32(1)), E0);
    Value *Y = B.CreateUnaryIntrinsic(Intrinsic::sqrt, MM);
    auto [PH, PL] = twoProduct(B, Y, Y);
    Value *Rem = B.CreateFSub(B.CreateFSub(MM, PH), PL);
    Rounded =
        B.CreateSelect(Special, B.CreateUnaryIntrinsic(Intrinsic::sqrt, A[0]),
                       B.CreateCall(core(), {Y, Rem, B.CreateAShr(EE, 1)}));
    break;
  }
  case EmulatedOp::FMA: {
    Value *FinA = isFinite(B, A[0]), *FinB = isFinite(B, A[1]);
    Value *FinAB = B.CreateAnd(FinA, FinB);
    // An infinite or NaN addend with a finite product is the result.
    Value *OnlyC = B.CreateAnd(FinAB, B.CreateNot(isFinite(B, A[2])));
    // A zero, infinite or NaN factor makes the product exact.
    Value *ExactAB =
        B.CreateOr(B.CreateNot(FinAB), B.CreateOr(IsZero(A[0]), IsZero(A[1])));
    auto [MA, EA] = frexp(B, A[0]);
    auto [MB, EB] = frexp(B, A[1]);
    auto [UH, UL] = twoProduct(B, MA, MB);
    Value *CZero = IsZero(A[2]);
    auto [MC, EC] = frexp(B, A[2]);
    Value *EAB = B.CreateAdd(EA, EB);
    Value *K = B.CreateSelect(
        CZero, EAB, B.CreateBinaryIntrinsic(Intrinsic::smax, EAB, EC));
    // Scale both terms so that the larger is near 1; the smaller one, far
    // below the larger's last bit, only counts by its sign.
    Value *Floor = i32(-(2 * P + 8));
    auto Scale = [&](Value *E) {
      return pow2(B, B.CreateBinaryIntrinsic(Intrinsic::smax, B.CreateSub(E, K),
                                             Floor));
    };
    Value *PAB = Scale(EAB);
    UH = B.CreateFMul(UH, PAB);
    UL = B.CreateFMul(UL, PAB);
    Value *C = B.CreateSelect(CZero, Zero, B.CreateFMul(MC, Scale(EC)));
    // C + UH + UL exactly as WH + WL + VL, WH faithful.
    auto [TH, TL] = twoSum(B, C, UH);
    auto [VH, VL] = twoSum(B, TL, UL);
    auto [WH, WL] = twoSum(B, TH, VH);
    Value *S = B.CreateFAdd(WL, VL);
    Value *General = B.CreateCall(core(), {WH, S, K});
    Value *Unfused = B.CreateFAdd(B.CreateFMul(A[0], A[1]), A[2]);
    Rounded =
        B.CreateSelect(OnlyC, A[2], B.CreateSelect(ExactAB, Unfused, General));
    break;
  }
  }
  B.CreateRet(correction(B, Rounded, Plain));
}

/// Calls \p Helper lane by lane (its parameters are scalars) on \p Args.
static Value *callPerLane(IRBuilderBase &B, Function *Helper,
                          ArrayRef<Value *> Args, Type *ResultTy) {
  auto *VT = dyn_cast<FixedVectorType>(ResultTy);
  if (!VT)
    return B.CreateCall(Helper, Args);
  Value *R = PoisonValue::get(VT);
  for (unsigned I = 0, N = VT->getNumElements(); I < N; ++I) {
    SmallVector<Value *, 4> Lane;
    for (Value *A : Args)
      Lane.push_back(B.CreateExtractElement(A, I));
    R = B.CreateInsertElement(R, B.CreateCall(Helper, Lane), I);
  }
  return R;
}

/// Plain + Correction, with Plain's sign (a result rounded to zero keeps
/// it).
static Value *applyCorrection(IRBuilderBase &B, Value *Plain,
                              Value *Correction) {
  return B.CreateBinaryIntrinsic(Intrinsic::copysign,
                                 B.CreateFAdd(Plain, Correction), Plain);
}

static Module &moduleOf(IRBuilderBase &B) {
  return *B.GetInsertBlock()->getModule();
}

Value *roundToLayout(IRBuilderBase &B, Value *X, FloatLayout L) {
  if (auto *C = dyn_cast<Constant>(X))
    if (Constant *R = roundConstantToLayout(C, L))
      return R;
  Type *Ty = X->getType();
  Function *F = Emulation(moduleOf(B), Ty->getScalarType(), L).rounding();
  return applyCorrection(B, X, callPerLane(B, F, {X}, Ty));
}

Value *emulateOperation(IRBuilderBase &B, EmulatedOp Op, ArrayRef<Value *> Args,
                        FloatLayout L) {
  Type *Ty = Args[0]->getType();
  Value *Plain = nullptr;
  switch (Op) {
  case EmulatedOp::Add:
    Plain = B.CreateFAdd(Args[0], Args[1]);
    break;
  case EmulatedOp::Sub:
    Plain = B.CreateFSub(Args[0], Args[1]);
    break;
  case EmulatedOp::Mul:
    Plain = B.CreateFMul(Args[0], Args[1]);
    break;
  case EmulatedOp::Div:
    Plain = B.CreateFDiv(Args[0], Args[1]);
    break;
  case EmulatedOp::Sqrt:
    Plain = B.CreateUnaryIntrinsic(Intrinsic::sqrt, Args[0]);
    break;
  case EmulatedOp::FMA:
    Plain = B.CreateIntrinsic(Intrinsic::fma, {Ty}, Args);
    break;
  }
  Function *F = Emulation(moduleOf(B), Ty->getScalarType(), L).operation(Op);
  SmallVector<Value *, 4> HelperArgs(Args.begin(), Args.end());
  HelperArgs.push_back(Plain);
  return applyCorrection(B, Plain, callPerLane(B, F, HelperArgs, Ty));
}

Value *emulateIntToFP(IRBuilderBase &B, Value *I, bool Signed, Type *Dest,
                      FloatLayout L) {
  Value *Plain = Signed ? B.CreateSIToFP(I, Dest) : B.CreateUIToFP(I, Dest);
  auto *IntTy = cast<IntegerType>(I->getType()->getScalarType());
  Function *F = Emulation(moduleOf(B), Dest->getScalarType(), L)
                    .intConversion(IntTy, Signed);
  return applyCorrection(B, Plain, callPerLane(B, F, {I, Plain}, Dest));
}

/// \p X rounded to \p L, computed in double (which holds every value of
/// the FROM types and every scaling below exactly).
static APFloat roundAPFloat(const APFloat &X, FloatLayout L) {
  if (!X.isFiniteNonZero())
    return X;
  const fltSemantics &Sem = X.getSemantics();
  bool Lost;
  APFloat D = X;
  D.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &Lost);
  int EminT = 2 - (1 << (L.Exponent - 1)), EmaxT = (1 << (L.Exponent - 1)) - 1;
  int E = ilogb(D);
  APFloat R = APFloat::getInf(APFloat::IEEEdouble(), D.isNegative());
  if (E <= EmaxT) {
    int Qe = std::max(E, EminT) - L.Mantissa;
    R = scalbn(D, -Qe, APFloat::rmNearestTiesToEven);
    R.roundToIntegral(APFloat::rmNearestTiesToEven);
    R = scalbn(R, Qe, APFloat::rmNearestTiesToEven);
    if (abs(R).compare(maxFinite(L)) == APFloat::cmpGreaterThan)
      R = APFloat::getInf(APFloat::IEEEdouble(), D.isNegative());
  }
  R.convert(Sem, APFloat::rmNearestTiesToEven, &Lost);
  return R;
}

Constant *roundConstantToLayout(Constant *C, FloatLayout L) {
  if (auto *CF = dyn_cast<ConstantFP>(C))
    return ConstantFP::get(C->getType(), roundAPFloat(CF->getValueAPF(), L));
  auto *VT = dyn_cast<FixedVectorType>(C->getType());
  if (!VT || !VT->getElementType()->isFloatingPointTy())
    return nullptr;
  if (isa<UndefValue>(C))
    return C;
  SmallVector<Constant *, 8> Lanes;
  for (unsigned I = 0, N = VT->getNumElements(); I < N; ++I) {
    Constant *E = C->getAggregateElement(I);
    Constant *R = E ? roundConstantToLayout(E, L) : nullptr;
    if (!R)
      return nullptr;
    Lanes.push_back(R);
  }
  return ConstantVector::get(Lanes);
}

} // namespace tapestry
