//===- DerivativeRulesTest.cpp - The rules table --------------------------===//
//
// Every partial derivative of the rules table is checked numerically: the
// rule's IR is emitted into a tiny function, evaluated, and compared with a
// central finite difference of the function itself computed with libm. The
// IR is evaluated two ways: with the operands as function arguments, by a
// small interpreter of the opcodes rules use; and with the operands as
// ConstantFP values, constant-folded by LLVM's ConstantFolding.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/DerivativeRules.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace llvm;
using namespace tapestry;

namespace {

//===----------------------------------------------------------------------===//
// Reference functions: what each rule differentiates, computed with libm.
//===----------------------------------------------------------------------===//

using Point = std::vector<double>;
using RefFn = std::function<double(const Point &)>;

struct Reference {
  RefFn F;
  /// Sample points inside the function's domain, away from kinks and
  /// discontinuities, one coordinate per operand.
  std::vector<Point> Points;
  /// Bit I set: operand I is an integer (powi's and ldexp's exponent) and
  /// carries no derivative.
  unsigned IntOperands = 0;
};

Reference unary(double (*F)(double), std::vector<double> Xs) {
  Reference R;
  R.F = [F](const Point &P) { return F(P[0]); };
  for (double X : Xs)
    R.Points.push_back({X});
  return R;
}

Reference binary(double (*F)(double, double), std::vector<Point> Ps,
                 unsigned IntOperands = 0) {
  return {[F](const Point &P) { return F(P[0], P[1]); }, std::move(Ps),
          IntOperands};
}

Reference ternary(double (*F)(double, double, double), std::vector<Point> Ps) {
  return {[F](const Point &P) { return F(P[0], P[1], P[2]); }, std::move(Ps),
          0};
}

/// Keyed by DerivativeRule::Name ("FAdd" for instructions, "sin" for math).
const std::map<std::string, Reference> &references() {
  static const std::map<std::string, Reference> Table = [] {
    std::map<std::string, Reference> T;
    const std::vector<double> Trig = {0.5, 2.0, -1.3};
    const std::vector<double> Unit = {0.3, -0.7, 0.55};
    const std::vector<double> Positive = {0.5, 3.0, 10.0};
    const std::vector<double> Steps = {0.3, 1.7, -2.4};

    // Instructions.
    T["FAdd"] = binary([](double X, double Y) { return X + Y; },
                       {{1.5, -2.25}, {3.0, 0.5}});
    T["FSub"] = binary([](double X, double Y) { return X - Y; },
                       {{1.5, -2.25}, {3.0, 0.5}});
    T["FMul"] = binary([](double X, double Y) { return X * Y; },
                       {{1.5, -2.25}, {0.3, 4.0}});
    T["FDiv"] = binary([](double X, double Y) { return X / Y; },
                       {{1.5, -2.25}, {3.0, 0.7}, {-0.4, 5.0}});
    T["FRem"] = binary([](double X, double Y) { return std::fmod(X, Y); },
                       {{7.3, 2.1}, {-7.3, 2.1}, {5.5, -1.2}});
    T["FNeg"] = unary([](double X) { return -X; }, {1.5, -0.3});
    T["Freeze"] = unary([](double X) { return X; }, {1.5, -0.3});

    // Trigonometric functions.
    T["sin"] = unary([](double X) { return std::sin(X); }, Trig);
    T["cos"] = unary([](double X) { return std::cos(X); }, Trig);
    T["tan"] = unary([](double X) { return std::tan(X); }, {0.3, -1.2, 1.0});
    T["asin"] = unary([](double X) { return std::asin(X); }, Unit);
    T["acos"] = unary([](double X) { return std::acos(X); }, Unit);
    T["atan"] = unary([](double X) { return std::atan(X); }, {0.5, -3.0, 1.2});
    T["atan2"] = binary([](double Y, double X) { return std::atan2(Y, X); },
                        {{1.0, 2.0}, {-0.5, -1.5}, {2.0, -0.3}});

    // Hyperbolic functions.
    T["sinh"] = unary([](double X) { return std::sinh(X); }, {0.5, -2.0, 1.5});
    T["cosh"] = unary([](double X) { return std::cosh(X); }, {0.5, -2.0, 1.5});
    T["tanh"] = unary([](double X) { return std::tanh(X); }, {0.5, -1.5, 0.1});
    T["asinh"] =
        unary([](double X) { return std::asinh(X); }, {0.5, -3.0, 1.5});
    T["acosh"] = unary([](double X) { return std::acosh(X); }, {1.5, 4.0});
    T["atanh"] = unary([](double X) { return std::atanh(X); }, Unit);

    // Exponentials and logarithms.
    T["exp"] = unary([](double X) { return std::exp(X); }, {0.5, -2.0, 3.0});
    T["exp2"] = unary([](double X) { return std::exp2(X); }, {0.5, -2.0, 3.0});
    T["exp10"] =
        unary([](double X) { return std::pow(10.0, X); }, {0.5, -1.2, 1.5});
    T["expm1"] =
        unary([](double X) { return std::expm1(X); }, {1e-3, 0.5, -2.0});
    T["log"] = unary([](double X) { return std::log(X); }, Positive);
    T["log2"] = unary([](double X) { return std::log2(X); }, Positive);
    T["log10"] = unary([](double X) { return std::log10(X); }, Positive);
    T["log1p"] =
        unary([](double X) { return std::log1p(X); }, {0.5, -0.5, 3.0});

    // Powers and roots.
    T["sqrt"] = unary([](double X) { return std::sqrt(X); }, {0.25, 2.0, 9.0});
    T["cbrt"] = unary([](double X) { return std::cbrt(X); }, {0.5, -8.0, 27.0});
    T["pow"] = binary([](double X, double Y) { return std::pow(X, Y); },
                      {{2.0, 3.0}, {1.5, -0.7}, {0.5, 2.5}, {2.0, 0.0}});
    T["powi"] = binary([](double X, double N) { return std::pow(X, N); },
                       {{1.5, 3.0}, {-2.0, 2.0}, {0.7, -2.0}},
                       /*IntOperands=*/2);
    T["hypot"] = binary([](double X, double Y) { return std::hypot(X, Y); },
                        {{3.0, 4.0}, {-1.5, 0.5}});
    T["ldexp"] = binary(
        [](double X, double N) { return std::ldexp(X, static_cast<int>(N)); },
        {{1.5, 3.0}, {-0.7, -2.0}}, /*IntOperands=*/2);
    T["scalbn"] = binary(
        [](double X, double N) { return std::scalbn(X, static_cast<int>(N)); },
        {{1.5, 3.0}, {-0.7, -2.0}}, /*IntOperands=*/2);
    T["scalbln"] = binary(
        [](double X, double N) {
          return std::scalbln(X, static_cast<long>(N));
        },
        {{1.5, 3.0}, {-0.7, -2.0}}, /*IntOperands=*/2);
    // The pointer operand (frexp's exponent, modf's integer part) carries no
    // derivative, like an integer.
    T["frexp"] = binary(
        [](double X, double) {
          int E;
          return std::frexp(X, &E);
        },
        {{1.5, 0.0}, {-0.7, 0.0}, {3.3, 0.0}}, /*IntOperands=*/2);
    T["modf"] = binary(
        [](double X, double) {
          double I;
          return std::modf(X, &I);
        },
        {{1.3, 0.0}, {-2.6, 0.0}}, /*IntOperands=*/2);
    T["lgamma_r"] = binary(
        [](double X, double) {
          int Sign;
          return ::lgamma_r(X, &Sign);
        },
        {{0.5, 0.0}, {3.7, 0.0}, {-1.5, 0.0}}, /*IntOperands=*/2);
    T["remainder"] =
        binary([](double X, double Y) { return std::remainder(X, Y); },
               {{7.3, 2.1}, {-7.3, 2.1}, {5.5, -1.2}});
    // remquo's third operand is the pointer its quotient bits go to.
    T["remquo"] = {[](const Point &P) {
                     int Q;
                     return std::remquo(P[0], P[1], &Q);
                   },
                   {{7.3, 2.1, 0.0}, {-7.3, 2.1, 0.0}, {5.5, -1.2, 0.0}},
                   /*IntOperands=*/4};

    // Sign, magnitude, selection.
    T["fabs"] = unary([](double X) { return std::fabs(X); }, {1.5, -2.5});
    T["copysign"] =
        binary([](double X, double Y) { return std::copysign(X, Y); },
               {{1.5, -2.0}, {-1.5, 3.0}, {2.0, 4.0}});
    T["nextafter"] =
        binary([](double X, double Y) { return std::nextafter(X, Y); },
               {{1.5, 3.0}, {-0.7, -2.0}});
    const std::vector<Point> Apart = {{1.0, 2.0}, {3.0, -1.0}};
    T["fmax"] =
        binary([](double X, double Y) { return std::fmax(X, Y); }, Apart);
    T["fmin"] =
        binary([](double X, double Y) { return std::fmin(X, Y); }, Apart);
    T["maximum"] =
        binary([](double X, double Y) { return std::fmax(X, Y); }, Apart);
    T["minimum"] =
        binary([](double X, double Y) { return std::fmin(X, Y); }, Apart);
    T["fmod"] = binary([](double X, double Y) { return std::fmod(X, Y); },
                       {{7.3, 2.1}, {-7.3, 2.1}, {5.5, -1.2}});
    const std::vector<Point> FmaPoints = {{1.5, -2.0, 0.7}, {0.3, 4.0, -1.0}};
    T["fma"] =
        ternary([](double X, double Y, double Z) { return std::fma(X, Y, Z); },
                FmaPoints);
    T["fmuladd"] = ternary(
        [](double X, double Y, double Z) { return X * Y + Z; }, FmaPoints);

    // Special functions.
    T["erf"] = unary([](double X) { return std::erf(X); }, {0.5, -1.2, 0.1});
    T["erfc"] = unary([](double X) { return std::erfc(X); }, {0.5, -1.2, 0.1});
    T["lgamma"] =
        unary([](double X) { return std::lgamma(X); }, {0.5, 3.7, 12.5, -1.5});
    T["tgamma"] =
        unary([](double X) { return std::tgamma(X); }, {0.5, 3.7, -1.5});
    T["j0"] = unary([](double X) { return ::j0(X); }, {0.5, 2.7, 11.0});
    T["j1"] = unary([](double X) { return ::j1(X); }, {0.5, 2.7, -4.0});
    T["y0"] = unary([](double X) { return ::y0(X); }, {0.5, 2.7, 11.0});
    T["y1"] = unary([](double X) { return ::y1(X); }, {0.5, 2.7, 11.0});

    // Piecewise-constant functions.
    T["floor"] = unary([](double X) { return std::floor(X); }, Steps);
    T["ceil"] = unary([](double X) { return std::ceil(X); }, Steps);
    T["round"] = unary([](double X) { return std::round(X); }, Steps);
    // Ties to even is the default rounding mode, so nearbyint is roundeven.
    T["roundeven"] = unary([](double X) { return std::nearbyint(X); }, Steps);
    T["trunc"] = unary([](double X) { return std::trunc(X); }, Steps);
    T["rint"] = unary([](double X) { return std::rint(X); }, Steps);
    T["nearbyint"] = unary([](double X) { return std::nearbyint(X); }, Steps);
    return T;
  }();
  return Table;
}

/// The floating-point instruction opcodes that have rules.
const unsigned InstructionOpcodes[] = {
    Instruction::FAdd, Instruction::FSub, Instruction::FMul,  Instruction::FDiv,
    Instruction::FRem, Instruction::FNeg, Instruction::Freeze};

/// Every rule of the table, by name: the instruction rules, then mathRules().
std::vector<std::string> allRuleNames() {
  std::vector<std::string> Names;
  for (unsigned Opcode : InstructionOpcodes)
    if (const DerivativeRule *R = findInstructionRule(Opcode))
      Names.push_back(R->Name);
  for (const DerivativeRule &R : mathRules())
    Names.push_back(R.Name);
  return Names;
}

const DerivativeRule *ruleNamed(StringRef Name) {
  for (unsigned Opcode : InstructionOpcodes)
    if (const DerivativeRule *R = findInstructionRule(Opcode))
      if (Name == R->Name)
        return R;
  for (const DerivativeRule &R : mathRules())
    if (Name == R.Name)
      return &R;
  return nullptr;
}

/// Central finite difference of \p F with respect to coordinate \p I.
double centralDifference(const RefFn &F, Point P, unsigned I) {
  double X = P[I];
  double H = 1e-5 * std::max(1.0, std::fabs(X));
  double Up = X + H, Down = X - H;
  P[I] = Up;
  double FUp = F(P);
  P[I] = Down;
  double FDown = F(P);
  return (FUp - FDown) / (Up - Down);
}

//===----------------------------------------------------------------------===//
// Evaluating the IR a rule emits.
//===----------------------------------------------------------------------===//

double constantValue(const ConstantFP &C) {
  APFloat F = C.getValueAPF();
  bool LosesInfo;
  F.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &LosesInfo);
  return F.convertToDouble();
}

/// Evaluates the straight-line IR of a partial derivative in double precision
/// (rounding to float where the IR type is float): constants, bound values
/// (the function's arguments) and the opcodes and intrinsics rules emit.
class Evaluator {
public:
  explicit Evaluator(DenseMap<const Value *, double> Env)
      : Env(std::move(Env)) {}

  double eval(const Value *V) {
    auto It = Env.find(V);
    if (It != Env.end())
      return It->second;
    double R;
    if (const auto *CF = dyn_cast<ConstantFP>(V))
      R = constantValue(*CF);
    else if (const auto *CI = dyn_cast<ConstantInt>(V))
      R = CI->getBitWidth() == 1 ? double(CI->getZExtValue())
                                 : double(CI->getSExtValue());
    else if (const auto *I = dyn_cast<Instruction>(V))
      R = evalInstruction(*I);
    else
      R = fail(V, "unsupported value");
    if (V->getType()->isFloatTy())
      R = static_cast<float>(R);
    Env[V] = R;
    return R;
  }

  const std::string &error() const { return Error; }

private:
  double fail(const Value *V, StringRef Why) {
    if (Error.empty()) {
      raw_string_ostream OS(Error);
      OS << Why << ": " << *V;
    }
    return std::numeric_limits<double>::quiet_NaN();
  }

  double evalInstruction(const Instruction &I) {
    auto Op = [&](unsigned N) { return eval(I.getOperand(N)); };
    switch (I.getOpcode()) {
    case Instruction::FAdd:
      return Op(0) + Op(1);
    case Instruction::FSub:
      return Op(0) - Op(1);
    case Instruction::FMul:
      return Op(0) * Op(1);
    case Instruction::FDiv:
      return Op(0) / Op(1);
    case Instruction::FRem:
      return std::fmod(Op(0), Op(1));
    case Instruction::FNeg:
      return -Op(0);
    case Instruction::Add:
      return Op(0) + Op(1);
    case Instruction::Sub:
      return Op(0) - Op(1);
    case Instruction::Mul:
      return Op(0) * Op(1);
    case Instruction::SIToFP:
    case Instruction::FPExt:
    case Instruction::FPTrunc:
      return Op(0);
    case Instruction::Select:
      return Op(0) != 0.0 ? Op(1) : Op(2);
    case Instruction::Or: // Booleans are 0.0 or 1.0.
      return (Op(0) != 0.0 || Op(1) != 0.0) ? 1.0 : 0.0;
    case Instruction::And:
      return (Op(0) != 0.0 && Op(1) != 0.0) ? 1.0 : 0.0;
    case Instruction::FCmp:
      return FCmpInst::compare(APFloat(Op(0)), APFloat(Op(1)),
                               cast<FCmpInst>(I).getPredicate())
                 ? 1.0
                 : 0.0;
    case Instruction::Call:
      return evalIntrinsic(I);
    default:
      return fail(&I, "unsupported instruction");
    }
  }

  /// Calls to C library functions (Bessel rules call the library again)
  /// and to the digamma helper lgamma's and tgamma's rules emit.
  double evalLibraryCall(const CallInst &CI) {
    const Function *Callee = CI.getCalledFunction();
    if (!Callee || CI.arg_size() != 1)
      return fail(&CI, "unsupported call");
    double X = eval(CI.getArgOperand(0));
    StringRef Name = Callee->getName();
    if (Name.starts_with("tapestry.digamma."))
      return referenceDigamma(X);
    Name.consume_back("f");
    if (Name == "j0")
      return ::j0(X);
    if (Name == "j1")
      return ::j1(X);
    if (Name == "y0")
      return ::y0(X);
    if (Name == "y1")
      return ::y1(X);
    return fail(&CI, "unsupported library call");
  }

  /// psi(x), independently of the plugin's helper: the recurrence up to
  /// x >= 20 and six terms of the asymptotic series.
  static double referenceDigamma(double X) {
    double R = 0;
    if (X < 0) {
      R = -M_PI / std::tan(M_PI * X);
      X = 1 - X;
    }
    for (; X < 20; X += 1)
      R -= 1 / X;
    double F = 1 / (X * X);
    return R + std::log(X) - 0.5 / X -
           F * (1.0 / 12 -
                F * (1.0 / 120 - F * (1.0 / 252 - F * (1.0 / 240 -
                                                      F * (1.0 / 132)))));
  }

  double evalIntrinsic(const Instruction &I) {
    const auto *II = dyn_cast<IntrinsicInst>(&I);
    if (!II)
      return evalLibraryCall(cast<CallInst>(I));
    SmallVector<double, 3> A;
    for (const Value *Arg : II->args())
      A.push_back(eval(Arg));
    switch (II->getIntrinsicID()) {
    case Intrinsic::sin:
      return std::sin(A[0]);
    case Intrinsic::cos:
      return std::cos(A[0]);
    case Intrinsic::tan:
      return std::tan(A[0]);
    case Intrinsic::asin:
      return std::asin(A[0]);
    case Intrinsic::acos:
      return std::acos(A[0]);
    case Intrinsic::atan:
      return std::atan(A[0]);
    case Intrinsic::sinh:
      return std::sinh(A[0]);
    case Intrinsic::cosh:
      return std::cosh(A[0]);
    case Intrinsic::tanh:
      return std::tanh(A[0]);
    case Intrinsic::exp:
      return std::exp(A[0]);
    case Intrinsic::exp2:
      return std::exp2(A[0]);
    case Intrinsic::exp10:
      return std::pow(10.0, A[0]);
    case Intrinsic::log:
      return std::log(A[0]);
    case Intrinsic::log2:
      return std::log2(A[0]);
    case Intrinsic::log10:
      return std::log10(A[0]);
    case Intrinsic::sqrt:
      return std::sqrt(A[0]);
    case Intrinsic::fabs:
      return std::fabs(A[0]);
    case Intrinsic::floor:
      return std::floor(A[0]);
    case Intrinsic::ceil:
      return std::ceil(A[0]);
    case Intrinsic::round:
      return std::round(A[0]);
    case Intrinsic::roundeven:
    case Intrinsic::rint:
    case Intrinsic::nearbyint:
      return std::nearbyint(A[0]);
    case Intrinsic::trunc:
      return std::trunc(A[0]);
    case Intrinsic::pow:
    case Intrinsic::powi:
      return std::pow(A[0], A[1]);
    case Intrinsic::ldexp:
      return std::ldexp(A[0], static_cast<int>(A[1]));
    case Intrinsic::copysign:
      return std::copysign(A[0], A[1]);
    case Intrinsic::maxnum:
      return std::fmax(A[0], A[1]);
    case Intrinsic::minnum:
      return std::fmin(A[0], A[1]);
    case Intrinsic::fma:
      return std::fma(A[0], A[1], A[2]);
    case Intrinsic::fmuladd:
      return A[0] * A[1] + A[2];
    default:
      return fail(&I, "unsupported intrinsic");
    }
  }

  DenseMap<const Value *, double> Env;
  std::string Error;
};

enum class OperandKind { Arguments, Constants };

const char *kindName(OperandKind K) {
  return K == OperandKind::Arguments ? "arguments" : "constants";
}

/// The partial derivative of \p R with respect to operand \p ArgNo at \p P,
/// where \p Y is the primal result, emitted for type \p FPTy. Operands whose
/// bit is set in \p IntOperands are i32. On failure returns nullopt and sets
/// \p Err.
std::optional<double> evaluatePartial(const DerivativeRule &R, unsigned ArgNo,
                                      const Point &P, double Y, Type *FPTy,
                                      unsigned IntOperands, OperandKind Kind,
                                      std::string &Err) {
  LLVMContext &Ctx = FPTy->getContext();
  Module M("rule", Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);
  auto IsInt = [&](unsigned I) { return (IntOperands >> I) & 1; };
  SmallVector<Type *, 4> ParamTys;
  for (unsigned I = 0; I < R.NumOperands; ++I)
    ParamTys.push_back(IsInt(I) ? I32 : FPTy);
  ParamTys.push_back(FPTy); // The primal result.
  Function *F = Function::Create(FunctionType::get(FPTy, ParamTys, false),
                                 GlobalValue::ExternalLinkage, "partial", M);
  BasicBlock *BB = BasicBlock::Create(Ctx, "entry", F);
  IRBuilder<> B(BB);

  SmallVector<Value *, 3> Operands;
  Value *Result;
  DenseMap<const Value *, double> Env;
  if (Kind == OperandKind::Arguments) {
    for (unsigned I = 0; I < R.NumOperands; ++I) {
      Operands.push_back(F->getArg(I));
      Env[F->getArg(I)] = P[I];
    }
    Result = F->getArg(R.NumOperands);
    Env[Result] = Y;
  } else {
    for (unsigned I = 0; I < R.NumOperands; ++I)
      Operands.push_back(IsInt(I) ? static_cast<Value *>(ConstantInt::get(
                                        I32, static_cast<int>(P[I]), true))
                                  : ConstantFP::get(FPTy, P[I]));
    Result = ConstantFP::get(FPTy, Y);
  }

  auto Lookup = [](Value *V) { return V; };
  PartialEmitter E(B, Operands, Result, Lookup);
  Value *D = R.Partial(E, ArgNo);
  if (!D) {
    Err = "the rule has no partial for this operand";
    return std::nullopt;
  }
  if (D->getType() != FPTy) {
    raw_string_ostream OS(Err);
    OS << "the partial has type " << *D->getType() << ", expected " << *FPTy;
    return std::nullopt;
  }
  ReturnInst *Ret = B.CreateRet(D);
  {
    raw_string_ostream OS(Err);
    if (verifyFunction(*F, &OS)) {
      OS << *F;
      return std::nullopt;
    }
  }
  if (Kind == OperandKind::Constants) {
    // Fold the emitted instructions in order; each folded instruction turns
    // its users' operands into constants.
    for (Instruction &I : make_early_inc_range(*BB)) {
      if (&I == Ret)
        break;
      if (Constant *C = ConstantFoldInstruction(&I, M.getDataLayout())) {
        I.replaceAllUsesWith(C);
        I.eraseFromParent();
      }
    }
    D = Ret->getReturnValue();
  }
  Evaluator Ev(std::move(Env));
  double V = Ev.eval(D);
  if (!Ev.error().empty()) {
    Err = Ev.error();
    return std::nullopt;
  }
  return V;
}

struct TypeCase {
  const char *Name;
  Type *(*Get)(LLVMContext &);
  double RelTol;
  double AbsTol;
};

const TypeCase TypeCases[] = {
    {"double", [](LLVMContext &C) { return Type::getDoubleTy(C); }, 1e-6, 1e-9},
    {"float", [](LLVMContext &C) { return Type::getFloatTy(C); }, 1e-5, 1e-6},
};

double roundTo(const TypeCase &TC, double X) {
  return StringRef(TC.Name) == "float" ? static_cast<float>(X) : X;
}

std::string describePoint(const Point &P) {
  std::string S;
  raw_string_ostream OS(S);
  OS << "(";
  for (unsigned I = 0; I < P.size(); ++I)
    OS << (I ? ", " : "") << format("%.17g", P[I]);
  OS << ")";
  return S;
}

/// Reports each of \p Problems of rule \p Name as a failure.
void reportProblems(const std::string &Name,
                    const std::vector<std::string> &Problems) {
  for (const std::string &P : Problems)
    ADD_FAILURE() << Name << ": " << P;
}

//===----------------------------------------------------------------------===//
// Every partial of every rule against finite differences.
//===----------------------------------------------------------------------===//

class RulePartials : public ::testing::TestWithParam<std::string> {};

/// Checks every partial of \p R against central finite differences of
/// \p Ref, for double and float, with argument and with constant operands.
/// Returns one message per disagreement (or evaluation problem); \p Checked
/// counts the partials compared.
std::vector<std::string> checkAgainstFiniteDifferences(const DerivativeRule &R,
                                                       const Reference &Ref,
                                                       unsigned &Checked) {
  std::vector<std::string> Problems;
  Checked = 0;
  for (const TypeCase &TC : TypeCases) {
    for (OperandKind Kind : {OperandKind::Arguments, OperandKind::Constants}) {
      for (const Point &Raw : Ref.Points) {
        if (Raw.size() != R.NumOperands) {
          Problems.push_back(std::string(R.Name) + ": sample point " +
                             describePoint(Raw) + " has the wrong arity");
          continue;
        }
        Point P;
        for (double X : Raw)
          P.push_back(roundTo(TC, X));
        double Y = roundTo(TC, Ref.F(P));
        for (unsigned ArgNo = 0; ArgNo < R.NumOperands; ++ArgNo) {
          if ((Ref.IntOperands >> ArgNo) & 1)
            continue;
          std::string Where =
              std::string(R.Name) + " d/dx" + std::to_string(ArgNo) + " at " +
              describePoint(P) + " (" + TC.Name + ", " + kindName(Kind) + ")";
          LLVMContext Ctx;
          std::string Err;
          std::optional<double> D = evaluatePartial(R, ArgNo, P, Y, TC.Get(Ctx),
                                                    Ref.IntOperands, Kind, Err);
          if (!D) {
            Problems.push_back(Where + ": " + Err);
            continue;
          }
          ++Checked;
          double Expected = centralDifference(Ref.F, P, ArgNo);
          double Tol = TC.RelTol * std::fabs(Expected) + TC.AbsTol;
          if (!(std::fabs(*D - Expected) <= Tol)) {
            std::string S;
            raw_string_ostream OS(S);
            OS << Where << ": rule gives " << format("%.17g", *D)
               << ", central difference gives " << format("%.17g", Expected);
            Problems.push_back(S);
          }
        }
      }
    }
  }
  return Problems;
}

TEST_P(RulePartials, MatchCentralFiniteDifferences) {
  const std::string &Name = GetParam();
  const DerivativeRule *R = ruleNamed(Name);
  ASSERT_NE(R, nullptr);
  auto RefIt = references().find(Name);
  ASSERT_NE(RefIt, references().end()) << "no reference function for rule '"
                                       << Name << "'; add one to references()";
  const Reference &Ref = RefIt->second;
  ASSERT_GE(Ref.Points.size(), 2u);

  unsigned Checked;
  std::vector<std::string> Problems =
      checkAgainstFiniteDifferences(*R, Ref, Checked);
  // Two types, two operand kinds, every point, every real operand.
  unsigned RealOperands = R->NumOperands - popcount(Ref.IntOperands);
  EXPECT_EQ(Checked + Problems.size(), 4 * Ref.Points.size() * RealOperands);
  reportProblems(Name, Problems);
}

/// Wrong rules the finite-difference check must reject.
Value *sinWithWrongSign(PartialEmitter &E, unsigned ArgNo) {
  return ArgNo == 0 ? E.neg(E.unary(Intrinsic::cos, E.arg(0))) : nullptr;
}
Value *exp2WithSlightlyWrongConstant(PartialEmitter &E, unsigned ArgNo) {
  return ArgNo == 0 ? E.mul(E.result(), E.constant(0.6932)) : nullptr;
}
Value *divWithSwappedPartials(PartialEmitter &E, unsigned ArgNo) {
  if (ArgNo == 1)
    return E.div(E.one(), E.arg(1));
  if (ArgNo == 0)
    return E.neg(E.div(E.result(), E.arg(1)));
  return nullptr;
}

TEST(DerivativeRules, FiniteDifferenceCheckRejectsWrongRules) {
  struct Case {
    DerivativeRule Rule;
    const char *Reference;
  } Cases[] = {
      {{"sin", 1, Intrinsic::sin, "sin", sinWithWrongSign}, "sin"},
      {{"exp2", 1, Intrinsic::exp2, "exp2", exp2WithSlightlyWrongConstant},
       "exp2"},
      {{"FDiv", 2, Intrinsic::not_intrinsic, "", divWithSwappedPartials},
       "FDiv"},
  };
  for (const Case &C : Cases) {
    const Reference &Ref = references().at(C.Reference);
    unsigned Checked;
    std::vector<std::string> Problems =
        checkAgainstFiniteDifferences(C.Rule, Ref, Checked);
    // Every comparison disagrees.
    EXPECT_EQ(Problems.size(), 4 * Ref.Points.size() * C.Rule.NumOperands)
        << C.Rule.Name;
    EXPECT_EQ(Checked, Problems.size()) << C.Rule.Name;
  }
}

TEST_P(RulePartials, HaveNoPartialForIntegerOrMissingOperands) {
  const std::string &Name = GetParam();
  const DerivativeRule *R = ruleNamed(Name);
  ASSERT_NE(R, nullptr);
  auto RefIt = references().find(Name);
  ASSERT_NE(RefIt, references().end());
  LLVMContext Ctx;
  Type *Dbl = Type::getDoubleTy(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);
  Module M("rule", Ctx);
  Function *F = Function::Create(FunctionType::get(Dbl, false),
                                 GlobalValue::ExternalLinkage, "f", M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  SmallVector<Value *, 3> Operands;
  for (unsigned I = 0; I < R->NumOperands; ++I)
    Operands.push_back(((RefIt->second.IntOperands >> I) & 1)
                           ? static_cast<Value *>(ConstantInt::get(I32, 2))
                           : ConstantFP::get(Dbl, 0.5 + I));
  auto Lookup = [](Value *V) { return V; };
  PartialEmitter E(B, Operands, ConstantFP::get(Dbl, 1.25), Lookup);
  for (unsigned ArgNo = 0; ArgNo < 3; ++ArgNo) {
    bool Expected =
        ArgNo < R->NumOperands && !((RefIt->second.IntOperands >> ArgNo) & 1);
    EXPECT_EQ(R->Partial(E, ArgNo) != nullptr, Expected)
        << Name << " operand " << ArgNo;
  }
}

INSTANTIATE_TEST_SUITE_P(AllRules, RulePartials,
                         ::testing::ValuesIn(allRuleNames()),
                         [](const ::testing::TestParamInfo<std::string> &I) {
                           return I.param;
                         });

TEST(DerivativeRules, EveryReferenceNamesARule) {
  for (const auto &[Name, Ref] : references())
    EXPECT_NE(ruleNamed(Name), nullptr) << Name;
}

TEST(DerivativeRules, RuleNamesAreUnique) {
  std::vector<std::string> Names = allRuleNames();
  std::map<std::string, unsigned> Count;
  for (const std::string &N : Names)
    EXPECT_EQ(++Count[N], 1u) << N;
  EXPECT_EQ(Names.size(), mathRules().size() + std::size(InstructionOpcodes));
}

TEST(DerivativeRules, InstructionRulesCoverTheFloatingPointArithmetic) {
  for (unsigned Opcode = Instruction::TermOpsBegin;
       Opcode < Instruction::OtherOpsEnd; ++Opcode) {
    bool Expected = is_contained(InstructionOpcodes, Opcode);
    const DerivativeRule *R = findInstructionRule(Opcode);
    EXPECT_EQ(R != nullptr, Expected) << Instruction::getOpcodeName(Opcode);
    if (R) {
      EXPECT_TRUE(StringRef(R->Name).equals_insensitive(
          Instruction::getOpcodeName(Opcode)));
      bool Unary = Opcode == Instruction::FNeg || Opcode == Instruction::Freeze;
      EXPECT_EQ(R->NumOperands, Unary ? 1u : 2u);
    }
  }
}

//===----------------------------------------------------------------------===//
// Non-differentiable points: Enzyme's conventions.
//===----------------------------------------------------------------------===//

/// The partial of math rule \p Name at \p P (double), evaluated with argument
/// and with constant operands; both must agree.
double partialAt(StringRef Name, unsigned ArgNo, const Point &P, double Y) {
  const DerivativeRule *R = ruleNamed(Name);
  if (!R) {
    ADD_FAILURE() << "no rule " << Name.str();
    return std::numeric_limits<double>::quiet_NaN();
  }
  double Values[2];
  OperandKind Kinds[2] = {OperandKind::Arguments, OperandKind::Constants};
  for (unsigned K = 0; K < 2; ++K) {
    LLVMContext Ctx;
    std::string Err;
    std::optional<double> D = evaluatePartial(
        *R, ArgNo, P, Y, Type::getDoubleTy(Ctx), 0, Kinds[K], Err);
    if (!D) {
      ADD_FAILURE() << Name.str() << ": " << Err;
      return std::numeric_limits<double>::quiet_NaN();
    }
    Values[K] = *D;
  }
  EXPECT_TRUE(Values[0] == Values[1] ||
              (std::isnan(Values[0]) && std::isnan(Values[1])))
      << Name.str() << " d/dx" << ArgNo << " at " << describePoint(P)
      << ": interpreted " << Values[0] << ", folded " << Values[1];
  return Values[0];
}

// Enzyme's convention: the one-sided derivative on the side of the zero's
// sign, so that second derivatives through fabs stay right.
TEST(DerivativeRuleConventions, FabsAtZeroFollowsTheSignOfZero) {
  EXPECT_EQ(partialAt("fabs", 0, {0.0}, 0.0), 1.0);
  EXPECT_EQ(partialAt("fabs", 0, {-0.0}, 0.0), -1.0);
  EXPECT_EQ(partialAt("fabs", 0, {2.0}, 2.0), 1.0);
  EXPECT_EQ(partialAt("fabs", 0, {-2.0}, 2.0), -1.0);
}

TEST(DerivativeRuleConventions, SqrtHasZeroDerivativeAtZero) {
  EXPECT_EQ(partialAt("sqrt", 0, {0.0}, 0.0), 0.0);
  EXPECT_EQ(partialAt("sqrt", 0, {-0.0}, -0.0), 0.0);
  EXPECT_EQ(partialAt("sqrt", 0, {4.0}, 2.0), 0.25);
}

/// For a selecting rule, the partials at \p P are (1, 0) if operand 0 is
/// chosen and (0, 1) if operand 1 is.
void expectChooses(StringRef Name, double X0, double X1, unsigned Chosen) {
  double Y = Name.contains("max") ? std::fmax(X0, X1) : std::fmin(X0, X1);
  SCOPED_TRACE((Name + " at " + describePoint({X0, X1})).str());
  EXPECT_EQ(partialAt(Name, 0, {X0, X1}, Y), Chosen == 0 ? 1.0 : 0.0);
  EXPECT_EQ(partialAt(Name, 1, {X0, X1}, Y), Chosen == 1 ? 1.0 : 0.0);
}

TEST(DerivativeRuleConventions, MaxAndMinPassTheChosenOperandsDerivative) {
  for (StringRef Max : {"fmax", "maximum"}) {
    expectChooses(Max, 1.0, 2.0, 1);
    expectChooses(Max, 2.0, 1.0, 0);
    expectChooses(Max, -3.0, -4.0, 0);
  }
  for (StringRef Min : {"fmin", "minimum"}) {
    expectChooses(Min, 1.0, 2.0, 0);
    expectChooses(Min, 2.0, 1.0, 1);
    expectChooses(Min, -3.0, -4.0, 1);
  }
}

TEST(DerivativeRuleConventions, MaxAndMinPassExactlyOneDerivativeOnTies) {
  for (StringRef Name : {"fmax", "fmin", "maximum", "minimum"}) {
    double D0 = partialAt(Name, 0, {3.0, 3.0}, 3.0);
    double D1 = partialAt(Name, 1, {3.0, 3.0}, 3.0);
    EXPECT_TRUE((D0 == 1.0 && D1 == 0.0) || (D0 == 0.0 && D1 == 1.0))
        << Name.str() << ": " << D0 << ", " << D1;
  }
}

TEST(DerivativeRuleConventions, FmaxAndFminIgnoreANaNSecondOperand) {
  // fmax(x, NaN) = x: the result is operand 0, so is its derivative.
  double NaN = std::numeric_limits<double>::quiet_NaN();
  expectChooses("fmax", 2.0, NaN, 0);
  expectChooses("fmin", 2.0, NaN, 0);
}

TEST(DerivativeRuleConventions, FmaxAndFminIgnoreANaNFirstOperand) {
  // fmax(NaN, y) = y: the result is operand 1, so is its derivative.
  double NaN = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::string> Problems;
  for (StringRef Name : {"fmax", "fmin"}) {
    double D0 = partialAt(Name, 0, {NaN, 2.0}, 2.0);
    double D1 = partialAt(Name, 1, {NaN, 2.0}, 2.0);
    if (D0 != 0.0 || D1 != 1.0) {
      std::string S;
      raw_string_ostream OS(S);
      OS << Name << "(NaN, 2) = 2: expected partials (0, 1), actual (" << D0
         << ", " << D1 << ")";
      Problems.push_back(S);
    }
  }
  reportProblems("fmax/fmin", Problems);
}

TEST(DerivativeRuleConventions, SingularPointsGiveZeroNotNaN) {
  EXPECT_EQ(partialAt("hypot", 0, {0.0, 0.0}, 0.0), 0.0);
  EXPECT_EQ(partialAt("hypot", 1, {0.0, 0.0}, 0.0), 0.0);
  EXPECT_EQ(partialAt("cbrt", 0, {0.0}, 0.0), 0.0);
  // pow(x, 0) = 1 for every x, pow(0, y) = 0 for every y > 0.
  EXPECT_EQ(partialAt("pow", 0, {0.0, 0.0}, 1.0), 0.0);
  EXPECT_EQ(partialAt("pow", 1, {0.0, 2.5}, 0.0), 0.0);
}

//===----------------------------------------------------------------------===//
// Matching calls to rules.
//===----------------------------------------------------------------------===//

TEST(DerivativeRules, LibraryNamesMatchAllPrecisions) {
  for (const char *Name : {"sin", "sinf", "sinl"}) {
    const DerivativeRule *R = findLibraryRule(Name);
    ASSERT_NE(R, nullptr) << Name;
    EXPECT_STREQ(R->Name, "sin");
  }
  EXPECT_STREQ(findLibraryRule("exp2f")->Name, "exp2");
  EXPECT_STREQ(findLibraryRule("expm1")->Name, "expm1");
  EXPECT_STREQ(findLibraryRule("erfc")->Name, "erfc");
  EXPECT_STREQ(findLibraryRule("coshl")->Name, "cosh");
  EXPECT_EQ(findLibraryRule("sinus"), nullptr);
  EXPECT_EQ(findLibraryRule("fmaxx"), nullptr);
}

TEST(DerivativeRules, EveryLibraryNameFindsItsOwnRule) {
  for (const DerivativeRule &R : mathRules()) {
    StringRef Lib = R.LibName;
    if (Lib.empty()) {
      EXPECT_EQ(findLibraryRule(R.Name), nullptr) << R.Name;
      continue;
    }
    for (const char *Suffix : {"", "f", "l"})
      EXPECT_EQ(findLibraryRule((Lib + Suffix).str()), &R)
          << (Lib + Suffix).str();
  }
}

TEST(DerivativeRules, EveryIntrinsicCallFindsItsOwnRule) {
  LLVMContext Ctx;
  Module M("calls", Ctx);
  Type *Dbl = Type::getDoubleTy(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);
  Function *F = Function::Create(FunctionType::get(Dbl, false),
                                 GlobalValue::ExternalLinkage, "f", M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  for (const DerivativeRule &R : mathRules()) {
    if (R.IID == Intrinsic::not_intrinsic)
      continue;
    SmallVector<Value *, 3> Args;
    for (unsigned I = 0; I < R.NumOperands; ++I) {
      bool IsInt =
          I == 1 && (R.IID == Intrinsic::powi || R.IID == Intrinsic::ldexp);
      Args.push_back(IsInt ? static_cast<Value *>(ConstantInt::get(I32, 3))
                           : ConstantFP::get(Dbl, 0.5));
    }
    CallInst *CI = B.CreateIntrinsic(Dbl, R.IID, Args);
    EXPECT_EQ(findCallRule(*CI), &R)
        << R.Name << " via " << CI->getCalledFunction()->getName().str();
  }
}

/// Parses \p IR and returns the rule findCallRule gives for each call in
/// @caller, keyed by callee name ("<indirect>" for an indirect call).
class CallRuleTest : public ::testing::Test {
protected:
  std::vector<std::pair<std::string, const DerivativeRule *>>
  rulesForCalls(StringRef IR) {
    SMDiagnostic Err;
    Mod = parseAssemblyString(IR, Err, Ctx);
    std::vector<std::pair<std::string, const DerivativeRule *>> Out;
    if (!Mod) {
      std::string S;
      raw_string_ostream OS(S);
      Err.print("CallRuleTest", OS);
      ADD_FAILURE() << S;
      return Out;
    }
    for (Instruction &I : instructions(*Mod->getFunction("caller")))
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        Function *Callee = CB->getCalledFunction();
        Out.emplace_back(Callee ? Callee->getName().str() : "<indirect>",
                         findCallRule(*CB));
      }
    return Out;
  }
  const DerivativeRule *ruleForOnlyCall(StringRef IR) {
    auto Rules = rulesForCalls(IR);
    if (Rules.size() != 1) {
      ADD_FAILURE() << "expected exactly one call, found " << Rules.size();
      return nullptr;
    }
    return Rules.front().second;
  }

  LLVMContext Ctx;
  std::unique_ptr<Module> Mod;
};

TEST_F(CallRuleTest, MatchesIntrinsicsAndLibraryFunctions) {
  auto Rules = rulesForCalls(R"IR(
declare double @llvm.sin.f64(double)
declare float @llvm.pow.f32(float, float)
declare double @llvm.powi.f64.i32(double, i32)
declare double @llvm.fmuladd.f64(double, double, double)
declare <2 x double> @llvm.cos.v2f64(<2 x double>)
declare double @sin(double)
declare float @sinf(float)
declare x86_fp80 @sinl(x86_fp80)
declare float @powf(float, float)
declare double @ldexp(double, i32)
declare double @atan2(double, double)

define void @caller(double %d, float %f, x86_fp80 %l, i32 %n, <2 x double> %v) {
  %1 = call double @llvm.sin.f64(double %d)
  %2 = call float @llvm.pow.f32(float %f, float %f)
  %3 = call double @llvm.powi.f64.i32(double %d, i32 %n)
  %4 = call double @llvm.fmuladd.f64(double %d, double %d, double %d)
  %5 = call <2 x double> @llvm.cos.v2f64(<2 x double> %v)
  %6 = call double @sin(double %d)
  %7 = call float @sinf(float %f)
  %8 = call x86_fp80 @sinl(x86_fp80 %l)
  %9 = call float @powf(float %f, float %f)
  %10 = call double @ldexp(double %d, i32 %n)
  %11 = call double @atan2(double %d, double %d)
  ret void
}
)IR");
  std::vector<std::pair<std::string, std::string>> Expected = {
      {"llvm.sin.f64", "sin"},
      {"llvm.pow.f32", "pow"},
      {"llvm.powi.f64.i32", "powi"},
      {"llvm.fmuladd.f64", "fmuladd"},
      {"llvm.cos.v2f64", "cos"},
      {"sin", "sin"},
      {"sinf", "sin"},
      {"sinl", "sin"},
      {"powf", "pow"},
      {"ldexp", "ldexp"},
      {"atan2", "atan2"}};
  ASSERT_EQ(Rules.size(), Expected.size());
  for (unsigned I = 0; I < Rules.size(); ++I) {
    EXPECT_EQ(Rules[I].first, Expected[I].first);
    ASSERT_NE(Rules[I].second, nullptr) << Rules[I].first;
    EXPECT_STREQ(Rules[I].second->Name, Expected[I].second.c_str())
        << Rules[I].first;
  }
}

TEST_F(CallRuleTest, RejectsOtherFunctions) {
  auto Rules = rulesForCalls(R"IR(
declare double @sine(double)
declare double @mysin(double)
declare i32 @llvm.ctpop.i32(i32)

define void @caller(double %d, i32 %n, ptr %fp) {
  %1 = call double @sine(double %d)
  %2 = call double @mysin(double %d)
  %3 = call i32 @llvm.ctpop.i32(i32 %n)
  %4 = call double %fp(double %d)
  ret void
}
)IR");
  ASSERT_EQ(Rules.size(), 4u);
  for (const auto &[Callee, Rule] : Rules)
    EXPECT_EQ(Rule, nullptr) << Callee << " matched " << Rule->Name;
}

TEST_F(CallRuleTest, RejectsSinWithTwoParameters) {
  EXPECT_EQ(ruleForOnlyCall(R"IR(
declare double @sin(double, double)
define void @caller(double %d) {
  %1 = call double @sin(double %d, double %d)
  ret void
}
)IR"),
            nullptr);
}

TEST_F(CallRuleTest, RejectsCallSiteSignatureMismatch) {
  // The declaration is right but the call passes two doubles.
  EXPECT_EQ(ruleForOnlyCall(R"IR(
declare double @sin(double)
define void @caller(double %d) {
  %1 = call double (double, double) @sin(double %d, double %d)
  ret void
}
)IR"),
            nullptr);
}

TEST_F(CallRuleTest, RejectsWrongParameterOrReturnTypes) {
  const char *Cases[] = {
      // Integer return.
      "declare i32 @sin(i32)\n"
      "define void @caller(i32 %n) {\n"
      "  %1 = call i32 @sin(i32 %n)\n  ret void\n}\n",
      // Parameter of another precision than the result.
      "declare float @sinf(double)\n"
      "define void @caller(double %d) {\n"
      "  %1 = call float @sinf(double %d)\n  ret void\n}\n",
      // Variadic.
      "declare double @sin(double, ...)\n"
      "define void @caller(double %d) {\n"
      "  %1 = call double (double, ...) @sin(double %d)\n  ret void\n}\n",
      // ldexp's exponent must be an integer.
      "declare double @ldexp(double, double)\n"
      "define void @caller(double %d) {\n"
      "  %1 = call double @ldexp(double %d, double %d)\n  ret void\n}\n",
      // pow's exponent must not be an integer.
      "declare double @pow(double, i32)\n"
      "define void @caller(double %d, i32 %n) {\n"
      "  %1 = call double @pow(double %d, i32 %n)\n  ret void\n}\n",
  };
  for (const char *IR : Cases)
    EXPECT_EQ(ruleForOnlyCall(IR), nullptr) << IR;
}

} // namespace
