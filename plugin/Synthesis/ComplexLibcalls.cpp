//===- ComplexLibcalls.cpp - C99 complex functions as real code -----------===//
//
// Implements ComplexLibcalls.h: for each call, the real and imaginary parts
// of its complex operands, then the formula of the function on them.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/ComplexLibcalls.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include <cmath>
#include <optional>

using namespace llvm;

namespace tapestry {

namespace {

/// What a complex function computes.
enum class ComplexFn {
  Abs,
  Arg,
  Exp,
  Sqrt,
  Log,
  Sin,
  Cos,
  Tan,
  Sinh,
  Cosh,
  Tanh,
  Asin,
  Acos,
  Atan,
  Asinh,
  Acosh,
  Atanh,
  Proj,
  Pow,
  Mul,
  Div
};

/// A complex value as its two parts.
struct Parts {
  Value *Re, *Im;
};

/// Emits the formulas of one call, on its scalar type T (double or float),
/// before the call. The inverse functions follow Kahan ("Branch cuts for
/// complex elementary functions", 1987): products of square roots that
/// keep their accuracy near zero and take the C99 branch cuts.
class ComplexFormulas {
public:
  ComplexFormulas(CallBase &CB, Type *T) : B(&CB), T(T), M(*CB.getModule()) {}

  /// The libm function \p Name (double's name; float's gets an f) of
  /// scalar arguments.
  Value *lib(StringRef Name, ArrayRef<Value *> Args) {
    std::string Full = Name.str() + (T->isFloatTy() ? "f" : "");
    SmallVector<Type *, 2> Tys(Args.size(), T);
    return B.CreateCall(
        M.getOrInsertFunction(Full, FunctionType::get(T, Tys, false)), Args);
  }
  Value *un(Intrinsic::ID ID, Value *V) {
    return B.CreateUnaryIntrinsic(ID, V);
  }
  Value *num(double C) { return ConstantFP::get(T, C); }
  Value *add(Value *X, Value *Y) { return B.CreateFAdd(X, Y); }
  Value *sub(Value *X, Value *Y) { return B.CreateFSub(X, Y); }
  Value *mul(Value *X, Value *Y) { return B.CreateFMul(X, Y); }
  Value *div(Value *X, Value *Y) { return B.CreateFDiv(X, Y); }

  /// i z.
  Parts timesI(Parts Z) { return {B.CreateFNeg(Z.Im), Z.Re}; }
  /// -i z.
  Parts timesMinusI(Parts Z) { return {Z.Im, B.CreateFNeg(Z.Re)}; }
  /// c + z for a real c.
  Parts plus(double C, Parts Z) { return {add(num(C), Z.Re), Z.Im}; }
  /// c - z for a real c.
  Parts minus(double C, Parts Z) {
    return {sub(num(C), Z.Re), B.CreateFNeg(Z.Im)};
  }
  /// z - c for a real c.
  Parts less(Parts Z, double C) { return {sub(Z.Re, num(C)), Z.Im}; }

  /// log z = log|z| + i arg z.
  Parts log(Parts Z) {
    return {un(Intrinsic::log, lib("hypot", {Z.Re, Z.Im})),
            lib("atan2", {Z.Im, Z.Re})};
  }
  /// The principal square root, without cancellation: with |z| = r,
  /// t = sqrt((r + |a|) / 2) is the larger part and b / (2t) the smaller
  /// (0 at z = 0).
  Parts sqrt(Parts Z) {
    Value *A = Z.Re, *Bi = Z.Im;
    Value *AbsA = un(Intrinsic::fabs, A);
    Value *Tv =
        un(Intrinsic::sqrt, mul(add(lib("hypot", {A, Bi}), AbsA), num(0.5)));
    Value *Small = B.CreateSelect(B.CreateFCmpOEQ(Tv, num(0)), num(0),
                                  div(Bi, mul(num(2), Tv)));
    // The branch by the sign bit, as |a|'s derivative goes: at a = -0 the
    // negative side's formula, whose derivative along a is the one |a|
    // gives (a comparison a < 0 would take -0 for positive).
    Value *NegA = B.CreateICmpSLT(
        B.CreateBitCast(A, B.getIntNTy(T->getPrimitiveSizeInBits())),
        ConstantInt::get(B.getIntNTy(T->getPrimitiveSizeInBits()), 0));
    return {B.CreateSelect(NegA, un(Intrinsic::fabs, Small), Tv),
            B.CreateSelect(NegA,
                           B.CreateBinaryIntrinsic(Intrinsic::copysign, Tv, Bi),
                           Small)};
  }
  /// asin z: Re = atan2(a, Re(sqrt(1 - z) sqrt(1 + z))),
  /// Im = asinh(Im(conj(sqrt(1 - z)) sqrt(1 + z))).
  Parts asin(Parts Z) {
    Parts P = sqrt(minus(1, Z)), Q = sqrt(plus(1, Z));
    return {lib("atan2", {Z.Re, sub(mul(P.Re, Q.Re), mul(P.Im, Q.Im))}),
            lib("asinh", {sub(mul(P.Re, Q.Im), mul(P.Im, Q.Re))})};
  }
  /// acos z: Re = 2 atan2(Re sqrt(1 - z), Re sqrt(1 + z)),
  /// Im = asinh(Im(conj(sqrt(1 + z)) sqrt(1 - z))).
  Parts acos(Parts Z) {
    Parts P = sqrt(minus(1, Z)), Q = sqrt(plus(1, Z));
    return {mul(num(2), lib("atan2", {P.Re, Q.Re})),
            lib("asinh", {sub(mul(Q.Re, P.Im), mul(Q.Im, P.Re))})};
  }
  /// acosh z: Re = asinh(Re(conj(sqrt(z - 1)) sqrt(z + 1))),
  /// Im = 2 atan2(Im sqrt(z - 1), Re sqrt(z + 1)).
  Parts acosh(Parts Z) {
    Parts P = sqrt(less(Z, 1)), Q = sqrt(plus(1, Z));
    return {lib("asinh", {add(mul(P.Re, Q.Re), mul(P.Im, Q.Im))}),
            mul(num(2), lib("atan2", {P.Im, Q.Re}))};
  }
  /// atanh z = log((1 + z) / (1 - z)) / 2:
  /// Re = log1p(4a / ((1 - a)^2 + b^2)) / 4,
  /// Im = atan2(2b, (1 - a)(1 + a) - b^2) / 2.
  Parts atanh(Parts Z) {
    Value *A = Z.Re, *Bi = Z.Im;
    Value *OneMinusA = sub(num(1), A);
    Value *Den = add(mul(OneMinusA, OneMinusA), mul(Bi, Bi));
    return {mul(num(0.25), lib("log1p", {div(mul(num(4), A), Den)})),
            mul(num(0.5), lib("atan2", {mul(num(2), Bi),
                                        sub(mul(OneMinusA, add(num(1), A)),
                                            mul(Bi, Bi))}))};
  }
  /// tanh z with e = exp(-2|a|) and d = 1 + e^2 + 2e cos 2b:
  /// Re = copysign(-expm1(-4|a|) / d, a), Im = 2e sin 2b / d; no overflow
  /// for large |a| and no cancellation near 0.
  Parts tanh(Parts Z) {
    Value *AbsA = un(Intrinsic::fabs, Z.Re);
    Value *E = un(Intrinsic::exp, mul(num(-2), AbsA));
    Value *TwoB = mul(num(2), Z.Im);
    Value *TwoE = mul(num(2), E);
    Value *D = add(add(num(1), mul(E, E)), mul(TwoE, un(Intrinsic::cos, TwoB)));
    Value *Re = div(B.CreateFNeg(lib("expm1", {mul(num(-4), AbsA)})), D);
    return {B.CreateBinaryIntrinsic(Intrinsic::copysign, Re, Z.Re),
            div(mul(TwoE, un(Intrinsic::sin, TwoB)), D)};
  }

  /// A complex result in the shape the C ABI returns it.
  Value *pack(Type *RT, Parts R) {
    Value *V = PoisonValue::get(RT);
    if (isa<FixedVectorType>(RT))
      return B.CreateInsertElement(
          B.CreateInsertElement(V, R.Re, B.getInt32(0)), R.Im, B.getInt32(1));
    return B.CreateInsertValue(B.CreateInsertValue(V, R.Re, 0), R.Im, 1);
  }

  /// The value of \p Fn of \p Z (and \p W, for pow, mul and div): a scalar
  /// for Abs and Arg, else a complex.
  std::pair<Parts, Value *> compute(ComplexFn Fn, Parts Z, Parts W) {
    Value *A = Z.Re, *Bi = Z.Im;
    switch (Fn) {
    case ComplexFn::Abs:
      return {{}, lib("hypot", {A, Bi})};
    case ComplexFn::Arg:
      return {{}, lib("atan2", {Bi, A})};
    case ComplexFn::Exp: {
      // e^a (cos b + i sin b).
      Value *E = un(Intrinsic::exp, A);
      return {{mul(E, un(Intrinsic::cos, Bi)), mul(E, un(Intrinsic::sin, Bi))},
              nullptr};
    }
    case ComplexFn::Sqrt:
      return {sqrt(Z), nullptr};
    case ComplexFn::Log:
      return {log(Z), nullptr};
    case ComplexFn::Sin:
      return {{mul(un(Intrinsic::sin, A), lib("cosh", {Bi})),
               mul(un(Intrinsic::cos, A), lib("sinh", {Bi}))},
              nullptr};
    case ComplexFn::Cos:
      return {{mul(un(Intrinsic::cos, A), lib("cosh", {Bi})),
               B.CreateFNeg(mul(un(Intrinsic::sin, A), lib("sinh", {Bi})))},
              nullptr};
    case ComplexFn::Sinh:
      return {{mul(lib("sinh", {A}), un(Intrinsic::cos, Bi)),
               mul(lib("cosh", {A}), un(Intrinsic::sin, Bi))},
              nullptr};
    case ComplexFn::Cosh:
      return {{mul(lib("cosh", {A}), un(Intrinsic::cos, Bi)),
               mul(lib("sinh", {A}), un(Intrinsic::sin, Bi))},
              nullptr};
    // tan z = -i tanh(iz), asinh z = -i asin(iz), atan z = -i atanh(iz).
    case ComplexFn::Tanh:
      return {tanh(Z), nullptr};
    case ComplexFn::Tan:
      return {timesMinusI(tanh(timesI(Z))), nullptr};
    case ComplexFn::Asin:
      return {asin(Z), nullptr};
    case ComplexFn::Asinh:
      return {timesMinusI(asin(timesI(Z))), nullptr};
    case ComplexFn::Acos:
      return {acos(Z), nullptr};
    case ComplexFn::Acosh:
      return {acosh(Z), nullptr};
    case ComplexFn::Atanh:
      return {atanh(Z), nullptr};
    case ComplexFn::Atan:
      return {timesMinusI(atanh(timesI(Z))), nullptr};
    case ComplexFn::Proj: {
      // z, or (inf, copysign(0, b)) if a part of z is infinite.
      Value *Inf =
          B.CreateOr(B.CreateFCmpOEQ(un(Intrinsic::fabs, A), num(HUGE_VAL)),
                     B.CreateFCmpOEQ(un(Intrinsic::fabs, Bi), num(HUGE_VAL)));
      return {
          {B.CreateSelect(Inf, num(HUGE_VAL), A),
           B.CreateSelect(
               Inf, B.CreateBinaryIntrinsic(Intrinsic::copysign, num(0), Bi),
               Bi)},
          nullptr};
    }
    case ComplexFn::Pow: {
      // z^w = exp(w log z).
      Parts L = log(Z);
      Value *ER = sub(mul(W.Re, L.Re), mul(W.Im, L.Im));
      Value *EI = add(mul(W.Re, L.Im), mul(W.Im, L.Re));
      Value *E = un(Intrinsic::exp, ER);
      return {{mul(E, un(Intrinsic::cos, EI)), mul(E, un(Intrinsic::sin, EI))},
              nullptr};
    }
    case ComplexFn::Mul:
      return {
          {sub(mul(A, W.Re), mul(Bi, W.Im)), add(mul(A, W.Im), mul(Bi, W.Re))},
          nullptr};
    case ComplexFn::Div: {
      Value *Den = add(mul(W.Re, W.Re), mul(W.Im, W.Im));
      return {{div(add(mul(A, W.Re), mul(Bi, W.Im)), Den),
               div(sub(mul(Bi, W.Re), mul(A, W.Im)), Den)},
              nullptr};
    }
    }
    llvm_unreachable("unknown complex function");
  }

  IRBuilder<> B;

private:
  Type *T;
  Module &M;
};

/// The function and the number of complex operands a declaration named
/// \p Name computes, with its scalar type's suffix ("", "f" or "l")
/// removed; nullopt if it is none of them.
std::optional<std::pair<ComplexFn, unsigned>> classify(StringRef Name) {
  if (Name.size() == 8 && Name.starts_with("__") && Name.ends_with("c3")) {
    StringRef Op = Name.substr(2, 3);
    if (Op == "mul" || Op == "div")
      return std::make_pair(Op == "mul" ? ComplexFn::Mul : ComplexFn::Div, 2u);
    return std::nullopt;
  }
  for (StringRef Suffix : {"f", "l", ""}) {
    if (!Name.ends_with(Suffix))
      continue;
    std::optional<ComplexFn> Fn =
        StringSwitch<std::optional<ComplexFn>>(Name.drop_back(Suffix.size()))
            .Case("cabs", ComplexFn::Abs)
            .Case("carg", ComplexFn::Arg)
            .Case("cexp", ComplexFn::Exp)
            .Case("csqrt", ComplexFn::Sqrt)
            .Case("clog", ComplexFn::Log)
            .Case("csin", ComplexFn::Sin)
            .Case("ccos", ComplexFn::Cos)
            .Case("csinh", ComplexFn::Sinh)
            .Case("ccosh", ComplexFn::Cosh)
            .Case("ctan", ComplexFn::Tan)
            .Case("ctanh", ComplexFn::Tanh)
            .Case("casin", ComplexFn::Asin)
            .Case("cacos", ComplexFn::Acos)
            .Case("catan", ComplexFn::Atan)
            .Case("casinh", ComplexFn::Asinh)
            .Case("cacosh", ComplexFn::Acosh)
            .Case("catanh", ComplexFn::Atanh)
            .Case("cproj", ComplexFn::Proj)
            .Case("cpow", ComplexFn::Pow)
            .Default(std::nullopt);
    if (Fn)
      return std::make_pair(*Fn, *Fn == ComplexFn::Pow ? 2u : 1u);
  }
  return std::nullopt;
}

/// The scalar type of a call's \p N complex operands if they are passed as
/// 2N scalars of one floating-point type or as N <2 x T> vectors; null
/// otherwise (long double complex goes through memory).
Type *operandScalarType(CallBase &CB, unsigned N) {
  if (CB.arg_size() == 0)
    return nullptr;
  Type *First = CB.getArgOperand(0)->getType();
  if (!all_of(CB.args(), [&](Value *A) { return A->getType() == First; }))
    return nullptr;
  if (First->isFloatingPointTy() && CB.arg_size() == 2 * N)
    return First;
  auto *VT = dyn_cast<FixedVectorType>(First);
  if (VT && VT->getNumElements() == 2 &&
      VT->getElementType()->isFloatingPointTy() && CB.arg_size() == N)
    return VT->getElementType();
  return nullptr;
}

/// True if \p CB's result has the shape \p Fn returns on \p T.
bool resultFits(CallBase &CB, ComplexFn Fn, Type *T) {
  Type *RT = CB.getType();
  if (Fn == ComplexFn::Abs || Fn == ComplexFn::Arg)
    return RT == T;
  if (auto *VT = dyn_cast<FixedVectorType>(RT))
    return VT->getNumElements() == 2 && VT->getElementType() == T;
  auto *ST = dyn_cast<StructType>(RT);
  return ST && ST->getNumElements() == 2 && ST->getElementType(0) == T &&
         ST->getElementType(1) == T;
}

} // namespace

void lowerComplexLibcalls(Function &F) {
  struct Call {
    CallBase *CB;
    ComplexFn Fn;
    unsigned N;
    Type *T;
  };
  SmallVector<Call, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (Function *Callee = CB->getCalledFunction();
          Callee && Callee->isDeclaration())
        if (auto K = classify(Callee->getName()))
          if (Type *T = operandScalarType(*CB, K->second);
              T &&
              (T->isDoubleTy() || T->isFloatTy() ||
               K->first == ComplexFn::Mul || K->first == ComplexFn::Div) &&
              resultFits(*CB, K->first, T))
            Calls.push_back({CB, K->first, K->second, T});
  for (const Call &C : Calls) {
    ComplexFormulas E(*C.CB, C.T);
    Parts Z{}, W{};
    Parts *Operands[2] = {&Z, &W};
    bool Packed = C.CB->arg_size() == C.N;
    for (unsigned K = 0; K < C.N; ++K) {
      if (Packed) {
        Value *V = C.CB->getArgOperand(K);
        *Operands[K] = {E.B.CreateExtractElement(V, uint64_t(0)),
                        E.B.CreateExtractElement(V, uint64_t(1))};
      } else {
        *Operands[K] = {C.CB->getArgOperand(2 * K),
                        C.CB->getArgOperand(2 * K + 1)};
      }
    }
    auto [R, Scalar] = E.compute(C.Fn, Z, W);
    C.CB->replaceAllUsesWith(Scalar ? Scalar : E.pack(C.CB->getType(), R));
    C.CB->eraseFromParent();
  }
}

} // namespace tapestry
