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
  Sinh,
  Cosh,
  Pow,
  Mul,
  Div
};

/// A complex value as its two parts.
struct Parts {
  Value *Re, *Im;
};

/// Emits the formulas of one call, on its scalar type T (double or float),
/// before the call.
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
  /// log z = log|z| + i arg z.
  Parts log(Parts Z) {
    return {un(Intrinsic::log, lib("hypot", {Z.Re, Z.Im})),
            lib("atan2", {Z.Im, Z.Re})};
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
      return {{B.CreateFMul(E, un(Intrinsic::cos, Bi)),
               B.CreateFMul(E, un(Intrinsic::sin, Bi))},
              nullptr};
    }
    case ComplexFn::Sqrt: {
      // Principal root: |z| = r, sqrt((r + a) / 2) + i sign(b) sqrt((r - a)
      // / 2).
      Value *R = lib("hypot", {A, Bi});
      Value *Half = ConstantFP::get(T, 0.5);
      return {{un(Intrinsic::sqrt, B.CreateFMul(B.CreateFAdd(R, A), Half)),
               B.CreateBinaryIntrinsic(
                   Intrinsic::copysign,
                   un(Intrinsic::sqrt, B.CreateFMul(B.CreateFSub(R, A), Half)),
                   Bi)},
              nullptr};
    }
    case ComplexFn::Log:
      return {log(Z), nullptr};
    case ComplexFn::Sin:
      return {{B.CreateFMul(un(Intrinsic::sin, A), lib("cosh", {Bi})),
               B.CreateFMul(un(Intrinsic::cos, A), lib("sinh", {Bi}))},
              nullptr};
    case ComplexFn::Cos:
      return {{B.CreateFMul(un(Intrinsic::cos, A), lib("cosh", {Bi})),
               B.CreateFNeg(
                   B.CreateFMul(un(Intrinsic::sin, A), lib("sinh", {Bi})))},
              nullptr};
    case ComplexFn::Sinh:
      return {{B.CreateFMul(lib("sinh", {A}), un(Intrinsic::cos, Bi)),
               B.CreateFMul(lib("cosh", {A}), un(Intrinsic::sin, Bi))},
              nullptr};
    case ComplexFn::Cosh:
      return {{B.CreateFMul(lib("cosh", {A}), un(Intrinsic::cos, Bi)),
               B.CreateFMul(lib("sinh", {A}), un(Intrinsic::sin, Bi))},
              nullptr};
    case ComplexFn::Pow: {
      // z^w = exp(w log z).
      Parts L = log(Z);
      Value *ER =
          B.CreateFSub(B.CreateFMul(W.Re, L.Re), B.CreateFMul(W.Im, L.Im));
      Value *EI =
          B.CreateFAdd(B.CreateFMul(W.Re, L.Im), B.CreateFMul(W.Im, L.Re));
      Value *E = un(Intrinsic::exp, ER);
      return {{B.CreateFMul(E, un(Intrinsic::cos, EI)),
               B.CreateFMul(E, un(Intrinsic::sin, EI))},
              nullptr};
    }
    case ComplexFn::Mul:
      return {{B.CreateFSub(B.CreateFMul(A, W.Re), B.CreateFMul(Bi, W.Im)),
               B.CreateFAdd(B.CreateFMul(A, W.Im), B.CreateFMul(Bi, W.Re))},
              nullptr};
    case ComplexFn::Div: {
      Value *Den =
          B.CreateFAdd(B.CreateFMul(W.Re, W.Re), B.CreateFMul(W.Im, W.Im));
      return {{B.CreateFDiv(
                   B.CreateFAdd(B.CreateFMul(A, W.Re), B.CreateFMul(Bi, W.Im)),
                   Den),
               B.CreateFDiv(
                   B.CreateFSub(B.CreateFMul(Bi, W.Re), B.CreateFMul(A, W.Im)),
                   Den)},
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
