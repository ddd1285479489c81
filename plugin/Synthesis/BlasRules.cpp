//===- BlasRules.cpp - Derivatives of BLAS calls --------------------------===//
//
// Notation: the routine's arguments as BLAS names them, dX the shadow of
// array X (null where X has none: constant data), and for the scalars alpha
// and beta their tangents or adjoints. Forward mode emits its calls before
// the primal call (they read the inputs as the call found them); reverse
// mode runs at the call's place in the reverse sweep, with the arrays the
// call read cached by the forward sweep where later code (or the call
// itself) may overwrite them (TapePlan::UnclobberedBlasOperands).
//
//===----------------------------------------------------------------------===//
#include "Synthesis/BlasRules.h"

#include "Analysis/ActivityAnalysis.h"
#include "Core/Diagnostics.h"
#include "Synthesis/ForwardModeSynthesizer.h"
#include "Synthesis/ReverseModeSynthesizer.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

using A = BlasArg;

static bool isArray(BlasArg Arg) {
  return Arg == A::A || Arg == A::B || Arg == A::C || Arg == A::X ||
         Arg == A::Y;
}
static bool isScalar(BlasArg Arg) { return Arg == A::Alpha || Arg == A::Beta; }
static bool isFlag(BlasArg Arg) {
  return Arg == A::Order || Arg == A::TransA || Arg == A::TransB ||
         Arg == A::Uplo || Arg == A::Diag;
}

BlasValues readBlasArgs(IRBuilderBase &B, CallBase &CB, const BlasCall &BC,
                        function_ref<Value *(Value *)> Primal) {
  BlasValues V;
  for (unsigned I = 0; I < (unsigned)A::NumArgs; ++I) {
    auto Arg = (BlasArg)I;
    if (!BC.has(Arg))
      continue;
    Value *Op = Primal(CB.getArgOperand(BC.index(Arg)));
    if (BC.CBlas || isArray(Arg)) {
      V[Arg] = Op;
      continue;
    }
    // Fortran: by reference; integers are BLAS's default 32-bit ones,
    // flags characters.
    Type *T = isScalar(Arg) ? BC.FPTy
              : isFlag(Arg) ? B.getInt8Ty()
                            : B.getInt32Ty();
    V[Arg] = B.CreateLoad(T, Op, Op->getName() + ".blas");
  }
  return V;
}

/// i1: a CBLAS row-major call.
static Value *isRowMajor(IRBuilderBase &B, const BlasCall &BC,
                         const BlasValues &V) {
  if (!BC.CBlas || !V[A::Order])
    return B.getFalse();
  return B.CreateICmpEQ(V[A::Order],
                        ConstantInt::get(V[A::Order]->getType(), 101));
}

static Value *isNoTransFlag(IRBuilderBase &B, const BlasCall &BC, Value *T) {
  if (BC.CBlas)
    return B.CreateICmpEQ(T, ConstantInt::get(T->getType(), 111));
  return B.CreateOr(B.CreateICmpEQ(T, B.getInt8('N')),
                    B.CreateICmpEQ(T, B.getInt8('n')));
}

Value *blasSpan(IRBuilderBase &B, const BlasCall &BC, const BlasValues &V,
                BlasArg Arr) {
  Type *I64 = B.getInt64Ty();
  auto Int = [&](Value *X) { return B.CreateSExtOrTrunc(X, I64); };
  Value *Zero = ConstantInt::get(I64, 0), *One = ConstantInt::get(I64, 1);
  // A vector of Len elements, Inc apart: (Len - 1) * |Inc| + 1, or none.
  auto Vector = [&](Value *Len, Value *Inc) {
    Value *L = Int(Len), *S = Int(Inc);
    Value *AbsInc = B.CreateSelect(B.CreateICmpSLT(S, Zero), B.CreateNeg(S), S);
    return B.CreateSelect(
        B.CreateICmpSLE(L, Zero), Zero,
        B.CreateAdd(B.CreateMul(B.CreateSub(L, One), AbsInc), One));
  };
  // A Rows x Cols matrix with leading dimension LD.
  auto Matrix = [&](Value *Rows, Value *Cols, Value *LD) {
    Value *R = Int(Rows), *C = Int(Cols), *L = Int(LD);
    Value *Row = isRowMajor(B, BC, V);
    Value *Outer = B.CreateSelect(Row, R, C),
          *Inner = B.CreateSelect(Row, C, R);
    Value *Empty =
        B.CreateOr(B.CreateICmpSLE(R, Zero), B.CreateICmpSLE(C, Zero));
    return B.CreateSelect(
        Empty, Zero,
        B.CreateAdd(B.CreateMul(B.CreateSub(Outer, One), L), Inner));
  };
  switch (BC.Routine) {
  case BlasRoutine::Gemv: {
    Value *NT = isNoTransFlag(B, BC, V[A::TransA]);
    if (Arr == A::A)
      return Matrix(V[A::M], V[A::N], V[A::LDA]);
    Value *LenX = B.CreateSelect(NT, V[A::N], V[A::M]);
    Value *LenY = B.CreateSelect(NT, V[A::M], V[A::N]);
    return Arr == A::X ? Vector(LenX, V[A::IncX]) : Vector(LenY, V[A::IncY]);
  }
  case BlasRoutine::Gemm: {
    if (Arr == A::C)
      return Matrix(V[A::M], V[A::N], V[A::LDC]);
    bool IsA = Arr == A::A;
    Value *NT = isNoTransFlag(B, BC, V[IsA ? A::TransA : A::TransB]);
    // op(A) is M x K, op(B) is K x N.
    Value *R = IsA ? V[A::M] : V[A::K], *C = IsA ? V[A::K] : V[A::N];
    return Matrix(B.CreateSelect(NT, R, C), B.CreateSelect(NT, C, R),
                  V[IsA ? A::LDA : A::LDB]);
  }
  case BlasRoutine::Spmv:
    if (Arr == A::A) { // packed: n (n + 1) / 2
      Value *N = Int(V[A::N]);
      return B.CreateSelect(
          B.CreateICmpSLE(N, Zero), Zero,
          B.CreateLShr(B.CreateMul(N, B.CreateAdd(N, One)), 1));
    }
    return Vector(V[A::N], V[Arr == A::X ? A::IncX : A::IncY]);
  case BlasRoutine::Symv:
  case BlasRoutine::Trmv:
  case BlasRoutine::Trsv:
    if (Arr == A::A)
      return Matrix(V[A::N], V[A::N], V[A::LDA]);
    return Vector(V[A::N], V[Arr == A::X ? A::IncX : A::IncY]);
  default:
    return Vector(V[A::N], V[Arr == A::X ? A::IncX : A::IncY]);
  }
}

bool isActiveBlasScalar(const CallBase &CB, const BlasCall &BC, BlasArg Arg,
                        const ActivityInfo &AI) {
  if (!BC.has(Arg))
    return false;
  const Value *Op = CB.getArgOperand(BC.index(Arg));
  if (BC.CBlas)
    return AI.isActive(Op);
  if (!AI.hasShadow(Op))
    return false;
  // `double alpha = 1.0; dgemv_(..., &alpha, ...)`: a local that only ever
  // receives constant values carries no derivative although it has a
  // shadow (every local has one).
  const Value *Obj = getUnderlyingObject(Op);
  if (!isa<AllocaInst>(Obj))
    return true;
  for (const User *U : Obj->users()) {
    if (auto *SI = dyn_cast<StoreInst>(U)) {
      if (SI->getValueOperand() == Obj || AI.isVaried(SI->getValueOperand()))
        return true;
    } else if (auto *CBU = dyn_cast<CallBase>(U)) {
      if (!CBU->isLifetimeStartOrEnd() && !isBlasCall(*CBU))
        return true;
    } else if (!isa<LoadInst>(U)) {
      return true;
    }
  }
  return false;
}

//===----------------------------------------------------------------------===//
// BlasEmitter
//===----------------------------------------------------------------------===//

BlasEmitter::BlasEmitter(Module &M, const BlasCall &BC, Function &G,
                         const BlasValues &V)
    : M(M), BC(BC), G(G), Order(V[A::Order]) {
  if (Value *T = V[A::TransA])
    FlagTy = T->getType();
  else
    FlagTy = BC.CBlas ? Type::getInt32Ty(M.getContext())
                      : Type::getInt8Ty(M.getContext());
}

void BlasEmitter::callWithOrder(IRBuilderBase &B, StringRef Routine,
                                ArrayRef<Value *> Args, unsigned NumChars) {
  SmallVector<Value *, 16> All;
  if (Order) // CBLAS: the user's order argument comes first
    All.push_back(Order);
  All.append(Args.begin(), Args.end());
  call(B, Routine, B.getVoidTy(), All, NumChars);
}

Value *BlasEmitter::call(IRBuilderBase &B, StringRef Routine, Type *RetTy,
                         ArrayRef<Value *> Args, unsigned NumChars) {
  char Prec = BC.FPTy->isDoubleTy() ? 'd' : 's';
  std::string Name = BC.CBlas ? ("cblas_" + Twine(Prec) + Routine).str()
                              : (Twine(Prec) + Routine + "_").str();
  SmallVector<Value *, 16> CallArgs;
  if (BC.CBlas) {
    CallArgs.append(Args.begin(), Args.end());
  } else {
    // Fortran takes everything by reference: scalars go through slots in
    // the entry block, and character flags have hidden lengths (1).
    IRBuilder<> EB(&G.getEntryBlock(), G.getEntryBlock().getFirstInsertionPt());
    for (Value *Arg : Args) {
      if (Arg->getType()->isPointerTy()) {
        CallArgs.push_back(Arg);
        continue;
      }
      AllocaInst *Slot = EB.CreateAlloca(Arg->getType(), nullptr, "blas.arg");
      B.CreateStore(Arg, Slot);
      CallArgs.push_back(Slot);
    }
    for (unsigned I = 0; I < NumChars; ++I)
      CallArgs.push_back(B.getInt64(1));
  }
  SmallVector<Type *, 16> Params;
  for (Value *Arg : CallArgs)
    Params.push_back(Arg->getType());
  FunctionCallee F =
      M.getOrInsertFunction(Name, FunctionType::get(RetTy, Params, false));
  return B.CreateCall(F, CallArgs);
}

Value *BlasEmitter::dot(IRBuilderBase &B, Value *N, Value *X, Value *IncX,
                        Value *Y, Value *IncY) {
  return call(B, "dot", BC.FPTy, {N, X, IncX, Y, IncY}, 0);
}

void BlasEmitter::axpy(IRBuilderBase &B, Value *N, Value *Alpha, Value *X,
                       Value *IncX, Value *Y, Value *IncY) {
  call(B, "axpy", B.getVoidTy(), {N, Alpha, X, IncX, Y, IncY}, 0);
}

/// |Inc|: scal does nothing for a non-positive increment, but gemv, symv
/// and spmv take negative ones; scaling every element is the same in
/// either direction.
static Value *absIncrement(IRBuilderBase &B, Value *Inc) {
  return B.CreateBinaryIntrinsic(Intrinsic::abs, Inc, B.getFalse());
}

void BlasEmitter::scal(IRBuilderBase &B, Value *N, Value *Alpha, Value *X,
                       Value *IncX) {
  call(B, "scal", B.getVoidTy(), {N, Alpha, X, IncX}, 0);
}

void BlasEmitter::copy(IRBuilderBase &B, Value *N, Value *X, Value *IncX,
                       Value *Y, Value *IncY) {
  call(B, "copy", B.getVoidTy(), {N, X, IncX, Y, IncY}, 0);
}

void BlasEmitter::zero(IRBuilderBase &B, Value *N, Value *X, Value *IncX) {
  IRBuilder<> EB(&G.getEntryBlock(), G.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Zero = EB.CreateAlloca(BC.FPTy, nullptr, "blas.zero");
  B.CreateStore(ConstantFP::get(BC.FPTy, 0.0), Zero);
  copy(B, N, Zero, ConstantInt::get(IncX->getType(), 0), X, IncX);
}

void BlasEmitter::gemv(IRBuilderBase &B, Value *Trans, Value *Rows, Value *Cols,
                       Value *Alpha, Value *Mat, Value *LDA, Value *X,
                       Value *IncX, Value *Beta, Value *Y, Value *IncY) {
  callWithOrder(B, "gemv",
                {Trans, Rows, Cols, Alpha, Mat, LDA, X, IncX, Beta, Y, IncY},
                1);
}

void BlasEmitter::ger(IRBuilderBase &B, Value *Rows, Value *Cols, Value *Alpha,
                      Value *X, Value *IncX, Value *Y, Value *IncY, Value *Mat,
                      Value *LDA) {
  callWithOrder(B, "ger", {Rows, Cols, Alpha, X, IncX, Y, IncY, Mat, LDA}, 0);
}

void BlasEmitter::gemm(IRBuilderBase &B, Value *TA, Value *TB, Value *Rows,
                       Value *Cols, Value *Inner, Value *Alpha, Value *MA,
                       Value *LDA, Value *MB, Value *LDB, Value *Beta,
                       Value *MC, Value *LDC) {
  callWithOrder(
      B, "gemm",
      {TA, TB, Rows, Cols, Inner, Alpha, MA, LDA, MB, LDB, Beta, MC, LDC}, 2);
}

void BlasEmitter::symv(IRBuilderBase &B, Value *Uplo, Value *N, Value *Alpha,
                       Value *Mat, Value *LDA, Value *X, Value *IncX,
                       Value *Beta, Value *Y, Value *IncY) {
  callWithOrder(B, "symv", {Uplo, N, Alpha, Mat, LDA, X, IncX, Beta, Y, IncY},
                1);
}

void BlasEmitter::spmv(IRBuilderBase &B, Value *Uplo, Value *N, Value *Alpha,
                       Value *AP, Value *X, Value *IncX, Value *Beta, Value *Y,
                       Value *IncY) {
  callWithOrder(B, "spmv", {Uplo, N, Alpha, AP, X, IncX, Beta, Y, IncY}, 1);
}

void BlasEmitter::triangular(IRBuilderBase &B, StringRef Routine, Value *Uplo,
                             Value *Trans, Value *Diag, Value *N, Value *Mat,
                             Value *LDA, Value *X, Value *IncX) {
  callWithOrder(B, Routine, {Uplo, Trans, Diag, N, Mat, LDA, X, IncX}, 3);
}

Value *BlasEmitter::isNoTrans(IRBuilderBase &B, Value *T) {
  return isNoTransFlag(B, BC, T);
}

Value *BlasEmitter::noTrans() {
  return ConstantInt::get(FlagTy, BC.CBlas ? 111 : 'N');
}

Value *BlasEmitter::trans() {
  return ConstantInt::get(FlagTy, BC.CBlas ? 112 : 'T');
}

Value *BlasEmitter::flip(IRBuilderBase &B, Value *T) {
  return B.CreateSelect(isNoTrans(B, T), trans(), noTrans());
}

Value *BlasEmitter::fp(double C) { return ConstantFP::get(BC.FPTy, C); }

//===----------------------------------------------------------------------===//
// Both modes
//===----------------------------------------------------------------------===//

/// scal does nothing when its increment is not positive (reference BLAS,
/// OpenBLAS): \p D where the call scaled, zero where it did not.
static Value *scalIncGuard(IRBuilderBase &B, Value *IncX, Value *D) {
  return B.CreateSelect(
      B.CreateICmpSGT(IncX, ConstantInt::get(IncX->getType(), 0)), D,
      ConstantFP::get(D->getType(), 0.0));
}

/// The name of the routine as the user wrote it, for messages.
static std::string blasName(const CallBase &CB) {
  return CB.getCalledFunction()->getName().str();
}

/// Rejects what the rules below do not cover: derivatives with respect to
/// gemv's and gemm's alpha and beta, and active inputs whose output has no
/// shadow. True if the call can be differentiated.
template <class Fail>
static bool checkBlasCall(const CallBase &CB, const BlasCall &BC,
                          const ActivityInfo &AI, Fail F) {
  bool Level3 =
      BC.Routine == BlasRoutine::Gemv || BC.Routine == BlasRoutine::Gemm ||
      BC.Routine == BlasRoutine::Symv || BC.Routine == BlasRoutine::Spmv;
  for (BlasArg S : {A::Alpha, A::Beta})
    if (Level3 && isActiveBlasScalar(CB, BC, S, AI)) {
      F("the derivative of '" + blasName(CB) + "' with respect to its " +
        (S == A::Alpha ? "alpha" : "beta") +
        " argument is not supported yet; pass a constant there (and scale "
        "the result separately, e.g. with " +
        (BC.CBlas ? "cblas_" : "") + (BC.FPTy->isDoubleTy() ? "d" : "s") +
        "scal" + (BC.CBlas ? "" : "_") + ")");
      return false;
    }
  bool ConstMatrixOnly =
      BC.Routine == BlasRoutine::Symv || BC.Routine == BlasRoutine::Spmv ||
      BC.Routine == BlasRoutine::Trmv || BC.Routine == BlasRoutine::Trsv;
  if (ConstMatrixOnly && AI.hasShadow(CB.getArgOperand(BC.index(A::A)))) {
    F("the derivative of '" + blasName(CB) +
      "' with respect to its matrix is not supported yet (only with respect "
      "to its vectors); pass the matrix as constant data (enzyme_const), or "
      "use " +
      (BC.CBlas ? "cblas_" : "") + (BC.FPTy->isDoubleTy() ? "d" : "s") +
      "gemv" + (BC.CBlas ? "" : "_") +
      " on the full matrix, whose derivatives Tapestry has");
    return false;
  }
  BlasArg Out = blasOutput(BC);
  if (Out == A::NumArgs || AI.hasShadow(CB.getArgOperand(BC.index(Out))))
    return true;
  bool ActiveIn = false;
  for (unsigned I = 0; I < (unsigned)A::NumArgs; ++I) {
    auto Arg = (BlasArg)I;
    if (BC.has(Arg) && Arg != Out &&
        ((isArray(Arg) && AI.hasShadow(CB.getArgOperand(BC.index(Arg)))) ||
         (isScalar(Arg) && isActiveBlasScalar(CB, BC, Arg, AI))))
      ActiveIn = true;
  }
  if (ActiveIn)
    F("'" + blasName(CB) +
      "' writes its result into memory that carries no derivative (a "
      "constant argument) from inputs that do; pass the output array with "
      "a shadow (enzyme_dup)");
  return !ActiveIn;
}

//===----------------------------------------------------------------------===//
// Forward mode
//===----------------------------------------------------------------------===//

void ForwardModeSynthesizer::visitBlasCall(CallBase &CB, const BlasCall &BC) {
  if (!checkBlasCall(CB, BC, AI,
                     [&](const std::string &Msg) { fail(&CB, Msg); }))
    return;
  Instruction *GI = primal(&CB);
  // nrm2's tangent needs its result; the others read the inputs as the call
  // found them, before it overwrites its output.
  IRBuilder<> B(BC.Routine == BlasRoutine::Nrm2 ? GI->getNextNode() : GI);
  BlasValues V = readBlasArgs(B, CB, BC, [&](Value *PV) { return primal(PV); });
  BlasEmitter E(module(), BC, *G, V);
  auto Operand = [&](BlasArg Arg) { return CB.getArgOperand(BC.index(Arg)); };
  auto Shadow = [&](BlasArg Arg, unsigned K) -> Value * {
    if (!BC.has(Arg) || !AI.hasShadow(Operand(Arg)))
      return nullptr;
    Value *S = shadowOf(Operand(Arg), &CB);
    return S ? lane(B, S, K) : nullptr;
  };
  auto ScalarTangent = [&](BlasArg Arg, unsigned K) -> Value * {
    if (!isActiveBlasScalar(CB, BC, Arg, AI))
      return nullptr;
    if (BC.CBlas)
      return lane(B, tangent(Operand(Arg)), K);
    Value *S = Shadow(Arg, K);
    return S ? B.CreateLoad(BC.FPTy, S) : nullptr;
  };
  Value *N = V[A::N], *X = V[A::X], *IncX = V[A::IncX], *Y = V[A::Y],
        *IncY = V[A::IncY], *Alpha = V[A::Alpha];
  switch (BC.Routine) {
  case BlasRoutine::Dot:
  case BlasRoutine::Nrm2: {
    if (!AI.isActive(&CB))
      return;
    bool Dot = BC.Routine == BlasRoutine::Dot;
    Value *T = lanes(B, BC.FPTy, [&](unsigned K) -> Value * {
      Value *Sum = E.fp(0.0);
      if (Value *DX = Shadow(A::X, K))
        Sum = B.CreateFAdd(Sum, Dot ? E.dot(B, N, DX, IncX, Y, IncY)
                                    : E.dot(B, N, X, IncX, DX, IncX));
      if (Value *DY = Dot ? Shadow(A::Y, K) : nullptr)
        Sum = B.CreateFAdd(Sum, E.dot(B, N, X, IncX, DY, IncY));
      if (Dot)
        return Sum;
      // d|x| = <x, dx> / |x|, and 0 at x = 0 (as for sqrt).
      Value *R = GI;
      return B.CreateSelect(B.CreateFCmpOEQ(R, E.fp(0.0)), E.fp(0.0),
                            B.CreateFDiv(Sum, R));
    });
    T->setName(CB.getName() + "'");
    Tangents[&CB] = T;
    return;
  }
  default:
    break;
  }
  for (unsigned K = 0; K < W; ++K) {
    switch (BC.Routine) {
    case BlasRoutine::Axpy:
      if (Value *DY = Shadow(A::Y, K)) {
        if (Value *DX = Shadow(A::X, K))
          E.axpy(B, N, Alpha, DX, IncX, DY, IncY);
        if (Value *DA = ScalarTangent(A::Alpha, K))
          E.axpy(B, N, DA, X, IncX, DY, IncY);
      }
      break;
    case BlasRoutine::Scal:
      if (Value *DX = Shadow(A::X, K)) {
        E.scal(B, N, Alpha, DX, IncX);
        if (Value *DA = ScalarTangent(A::Alpha, K))
          E.axpy(B, N, scalIncGuard(B, IncX, DA), X, IncX, DX, IncX);
      }
      break;
    case BlasRoutine::Copy:
      if (Value *DY = Shadow(A::Y, K)) {
        if (Value *DX = Shadow(A::X, K))
          E.copy(B, N, DX, IncX, DY, IncY);
        else
          E.zero(B, N, DY, IncY);
      }
      break;
    case BlasRoutine::Gemv:
      if (Value *DY = Shadow(A::Y, K)) {
        // dy = beta dy + alpha op(dA) x + alpha op(A) dx.
        Value *Beta = V[A::Beta];
        Value *T = V[A::TransA], *M = V[A::M], *LDA = V[A::LDA];
        if (Value *DA = Shadow(A::A, K)) {
          E.gemv(B, T, M, N, Alpha, DA, LDA, X, IncX, Beta, DY, IncY);
          Beta = E.fp(1.0);
        }
        if (Value *DX = Shadow(A::X, K)) {
          E.gemv(B, T, M, N, Alpha, V[A::A], LDA, DX, IncX, Beta, DY, IncY);
          Beta = E.fp(1.0);
        }
        if (Beta == V[A::Beta]) // neither: dy = beta dy
          E.scal(B, B.CreateSelect(E.isNoTrans(B, T), M, N), Beta, DY,
                 absIncrement(B, IncY));
      }
      break;
    case BlasRoutine::Gemm:
      if (Value *DC = Shadow(A::C, K)) {
        // dC = beta dC + alpha op(dA) op(B) + alpha op(A) op(dB).
        Value *Beta = V[A::Beta];
        Value *TA = V[A::TransA], *TB = V[A::TransB], *M = V[A::M],
              *K3 = V[A::K], *LDA = V[A::LDA], *LDB = V[A::LDB],
              *LDC = V[A::LDC];
        Value *DA = Shadow(A::A, K), *DB = Shadow(A::B, K);
        if (DA) {
          E.gemm(B, TA, TB, M, N, K3, Alpha, DA, LDA, V[A::B], LDB, Beta, DC,
                 LDC);
          Beta = E.fp(1.0);
        }
        if (DB)
          E.gemm(B, TA, TB, M, N, K3, Alpha, V[A::A], LDA, DB, LDB, Beta, DC,
                 LDC);
        if (!DA && !DB) // dC = beta dC: gemm with alpha 0 reads no A, B
          E.gemm(B, TA, TB, M, N, K3, E.fp(0.0), V[A::A], LDA, V[A::B], LDB,
                 Beta, DC, LDC);
      }
      break;
    case BlasRoutine::Symv:
    case BlasRoutine::Spmv:
      // dy = beta dy + alpha A dx (A constant).
      if (Value *DY = Shadow(A::Y, K)) {
        if (Value *DX = Shadow(A::X, K)) {
          if (BC.Routine == BlasRoutine::Symv)
            E.symv(B, V[A::Uplo], N, Alpha, V[A::A], V[A::LDA], DX, IncX,
                   V[A::Beta], DY, IncY);
          else
            E.spmv(B, V[A::Uplo], N, Alpha, V[A::A], DX, IncX, V[A::Beta], DY,
                   IncY);
        } else {
          E.scal(B, N, V[A::Beta], DY, absIncrement(B, IncY));
        }
      }
      break;
    case BlasRoutine::Trmv:
    case BlasRoutine::Trsv:
      // dx = op(A) dx, or op(A)^-1 dx (A constant).
      if (Value *DX = Shadow(A::X, K))
        E.triangular(B, BC.Base, V[A::Uplo], V[A::TransA], V[A::Diag], N,
                     V[A::A], V[A::LDA], DX, IncX);
      break;
    default:
      break;
    }
  }
}

//===----------------------------------------------------------------------===//
// Reverse mode
//===----------------------------------------------------------------------===//

/// Which arrays the reverse of \p CB reads, given which carry derivatives.
static SmallVector<BlasArg, 3>
arraysNeeded(const CallBase &CB, const BlasCall &BC, const ActivityInfo &AI) {
  auto Has = [&](BlasArg Arg) {
    return BC.has(Arg) && AI.hasShadow(CB.getArgOperand(BC.index(Arg)));
  };
  bool Alpha = isActiveBlasScalar(CB, BC, A::Alpha, AI);
  SmallVector<BlasArg, 3> Need;
  switch (BC.Routine) {
  case BlasRoutine::Dot:
    if (!AI.isActive(&CB))
      break;
    if (Has(A::Y))
      Need.push_back(A::X);
    if (Has(A::X))
      Need.push_back(A::Y);
    break;
  case BlasRoutine::Nrm2:
    if (AI.isActive(&CB) && Has(A::X))
      Need.push_back(A::X);
    break;
  case BlasRoutine::Axpy:
  case BlasRoutine::Scal:
    if (Alpha && Has(blasOutput(BC)))
      Need.push_back(A::X);
    break;
  case BlasRoutine::Gemv:
    if (!Has(A::Y))
      break;
    if (Has(A::X))
      Need.push_back(A::A);
    if (Has(A::A))
      Need.push_back(A::X);
    break;
  case BlasRoutine::Gemm:
    if (!Has(A::C))
      break;
    if (Has(A::B))
      Need.push_back(A::A);
    if (Has(A::A))
      Need.push_back(A::B);
    break;
  case BlasRoutine::Symv:
  case BlasRoutine::Spmv:
    if (Has(A::Y) && Has(A::X))
      Need.push_back(A::A);
    break;
  case BlasRoutine::Trmv:
  case BlasRoutine::Trsv:
    if (Has(A::X))
      Need.push_back(A::A);
    break;
  case BlasRoutine::Copy:
    break;
  }
  return Need;
}

void ReverseModeSynthesizer::augmentBlasCall(CallBase &CB, const BlasCall &BC) {
  if (!checkBlasCall(CB, BC, AI,
                     [&](const std::string &Msg) { fail(&CB, Msg); }))
    return;
  Instruction *GI = primal(&CB);
  IRBuilder<> B(GI);
  BlasForward &F = BlasForwards[&CB];
  F.Args = readBlasArgs(B, CB, BC, [&](Value *PV) { return primal(PV); });
  // Arrays the reverse sweep reads are copied (their whole span, leading
  // dimensions and increments kept) unless nothing may overwrite them.
  for (BlasArg Arg : arraysNeeded(CB, BC, AI)) {
    const Use &U = CB.getArgOperandUse(BC.index(Arg));
    if (Arg != blasOutput(BC) && Tape.UnclobberedBlasOperands.count(&U))
      continue;
    Value *Bytes = B.CreateMul(
        blasSpan(B, BC, F.Args, Arg),
        B.getInt64(module().getDataLayout().getTypeAllocSize(BC.FPTy)));
    FunctionCallee Malloc =
        module().getOrInsertFunction("malloc", B.getPtrTy(), B.getInt64Ty());
    Value *Copy = B.CreateCall(Malloc, {Bytes}, "blas.cache");
    B.CreateMemCpy(Copy, MaybeAlign(), F.Args[Arg], MaybeAlign(), Bytes);
    F.Cache[(unsigned)Arg] = Copy;
  }
}

void ReverseModeSynthesizer::reverseBlasCall(CallBase &CB, const BlasCall &BC,
                                             IRBuilderBase &B) {
  auto It = BlasForwards.find(&CB);
  if (It == BlasForwards.end())
    return; // rejected by checkBlasCall
  BlasForward &F = It->second;
  BasicBlock *PB = CB.getParent();
  BlasValues V;
  for (unsigned I = 0; I < (unsigned)A::NumArgs; ++I)
    if (Value *GV = F.Cache[I] ? F.Cache[I] : F.Args.V[I])
      V.V[I] = lookup(GV, PB, B);
  BlasEmitter E(module(), BC, *G, V);
  auto Operand = [&](BlasArg Arg) { return CB.getArgOperand(BC.index(Arg)); };
  auto Shadow = [&](BlasArg Arg, unsigned K) -> Value * {
    if (!BC.has(Arg) || !AI.hasShadow(Operand(Arg)))
      return nullptr;
    Value *S = shadowOf(Operand(Arg), &CB);
    return S ? lane(B, lookup(S, PB, B), K) : nullptr;
  };
  bool Alpha = isActiveBlasScalar(CB, BC, A::Alpha, AI);
  // Adjoints of alpha, per lane: into the argument's adjoint (CBLAS) or
  // added to its shadow memory (Fortran).
  SmallVector<Value *, 4> AlphaAdj;
  Value *N = V[A::N], *X = V[A::X], *IncX = V[A::IncX], *Y = V[A::Y],
        *IncY = V[A::IncY], *Al = V[A::Alpha];
  Value *D = BC.Routine == BlasRoutine::Dot || BC.Routine == BlasRoutine::Nrm2
                 ? (AI.isActive(&CB) ? takeAdjoint(&CB, B) : nullptr)
                 : nullptr;
  for (unsigned K = 0; K < W; ++K) {
    Value *DK = D ? lane(B, D, K) : nullptr;
    switch (BC.Routine) {
    case BlasRoutine::Dot:
      if (!DK)
        break;
      if (Value *DX = Shadow(A::X, K))
        E.axpy(B, N, DK, Y, IncY, DX, IncX);
      if (Value *DY = Shadow(A::Y, K))
        E.axpy(B, N, DK, X, IncX, DY, IncY);
      break;
    case BlasRoutine::Nrm2:
      if (Value *DX = DK ? Shadow(A::X, K) : nullptr) {
        Value *R = lookup(primal(&CB), PB, B);
        Value *S = B.CreateSelect(B.CreateFCmpOEQ(R, E.fp(0.0)), E.fp(0.0),
                                  B.CreateFDiv(DK, R));
        E.axpy(B, N, S, X, IncX, DX, IncX);
      }
      break;
    case BlasRoutine::Axpy:
      if (Value *DY = Shadow(A::Y, K)) {
        if (Alpha)
          AlphaAdj.push_back(E.dot(B, N, X, IncX, DY, IncY));
        if (Value *DX = Shadow(A::X, K))
          E.axpy(B, N, Al, DY, IncY, DX, IncX);
      }
      break;
    case BlasRoutine::Scal:
      if (Value *DX = Shadow(A::X, K)) {
        if (Alpha)
          AlphaAdj.push_back(
              scalIncGuard(B, IncX, E.dot(B, N, X, IncX, DX, IncX)));
        E.scal(B, N, Al, DX, IncX);
      }
      break;
    case BlasRoutine::Copy:
      if (Value *DY = Shadow(A::Y, K)) {
        if (Value *DX = Shadow(A::X, K))
          E.axpy(B, N, E.fp(1.0), DY, IncY, DX, IncX);
        E.zero(B, N, DY, IncY);
      }
      break;
    case BlasRoutine::Gemv:
      if (Value *DY = Shadow(A::Y, K)) {
        Value *T = V[A::TransA], *M = V[A::M], *LDA = V[A::LDA];
        Value *NT = E.isNoTrans(B, T);
        // y = alpha A x: dA += alpha dy x^T; y = alpha A^T x: dA += alpha
        // x dy^T.
        if (Value *DA = Shadow(A::A, K))
          E.ger(B, M, N, Al, B.CreateSelect(NT, DY, X),
                B.CreateSelect(NT, IncY, IncX), B.CreateSelect(NT, X, DY),
                B.CreateSelect(NT, IncX, IncY), DA, LDA);
        // dx += alpha op(A)^T dy.
        if (Value *DX = Shadow(A::X, K))
          E.gemv(B, E.flip(B, T), M, N, Al, V[A::A], LDA, DY, IncY, E.fp(1.0),
                 DX, IncX);
        E.scal(B, B.CreateSelect(NT, M, N), V[A::Beta], DY,
               absIncrement(B, IncY));
      }
      break;
    case BlasRoutine::Gemm:
      if (Value *DC = Shadow(A::C, K)) {
        Value *TA = V[A::TransA], *TB = V[A::TransB], *M = V[A::M],
              *K3 = V[A::K], *LDA = V[A::LDA], *LDB = V[A::LDB],
              *LDC = V[A::LDC], *MA = V[A::A], *MB = V[A::B];
        Value *NTA = E.isNoTrans(B, TA), *NTB = E.isNoTrans(B, TB);
        auto Sel = [&](Value *C, Value *T, Value *F) {
          return B.CreateSelect(C, T, F);
        };
        // op(A) = A: dA += alpha dC op(B)^T; op(A) = A^T: dA += alpha op(B)
        // dC^T.
        if (Value *DA = Shadow(A::A, K))
          E.gemm(B, Sel(NTA, E.noTrans(), TB),
                 Sel(NTA, E.flip(B, TB), E.trans()), Sel(NTA, M, K3),
                 Sel(NTA, K3, M), N, Al, Sel(NTA, DC, MB), Sel(NTA, LDC, LDB),
                 Sel(NTA, MB, DC), Sel(NTA, LDB, LDC), E.fp(1.0), DA, LDA);
        // op(B) = B: dB += alpha op(A)^T dC; op(B) = B^T: dB += alpha dC^T
        // op(A).
        if (Value *DB = Shadow(A::B, K))
          E.gemm(B, Sel(NTB, E.flip(B, TA), E.trans()),
                 Sel(NTB, E.noTrans(), TA), Sel(NTB, K3, N), Sel(NTB, N, K3), M,
                 Al, Sel(NTB, MA, DC), Sel(NTB, LDA, LDC), Sel(NTB, DC, MA),
                 Sel(NTB, LDC, LDA), E.fp(1.0), DB, LDB);
        // dC = beta dC: gemm with alpha 0 reads no A, B.
        E.gemm(B, TA, TB, M, N, K3, E.fp(0.0), MA, LDA, MB, LDB, V[A::Beta], DC,
               LDC);
      }
      break;
    case BlasRoutine::Symv:
    case BlasRoutine::Spmv:
      // dx += alpha A dy (A symmetric, constant); dy *= beta.
      if (Value *DY = Shadow(A::Y, K)) {
        if (Value *DX = Shadow(A::X, K)) {
          if (BC.Routine == BlasRoutine::Symv)
            E.symv(B, V[A::Uplo], N, Al, V[A::A], V[A::LDA], DY, IncY,
                   E.fp(1.0), DX, IncX);
          else
            E.spmv(B, V[A::Uplo], N, Al, V[A::A], DY, IncY, E.fp(1.0), DX,
                   IncX);
        }
        E.scal(B, N, V[A::Beta], DY, absIncrement(B, IncY));
      }
      break;
    case BlasRoutine::Trmv:
    case BlasRoutine::Trsv:
      // x = op(A) x: dx = op(A)^T dx; x = op(A)^-1 x: dx = op(A)^-T dx.
      if (Value *DX = Shadow(A::X, K))
        E.triangular(B, BC.Base, V[A::Uplo], E.flip(B, V[A::TransA]),
                     V[A::Diag], N, V[A::A], V[A::LDA], DX, IncX);
      break;
    }
  }
  if (!AlphaAdj.empty()) {
    Value *Op = Operand(A::Alpha);
    if (BC.CBlas) {
      addAdjoint(Op, lanes(B, BC.FPTy, [&](unsigned K) { return AlphaAdj[K]; }),
                 B);
    } else {
      for (unsigned K = 0; K < W; ++K) {
        Value *S = Shadow(A::Alpha, K);
        B.CreateStore(B.CreateFAdd(B.CreateLoad(BC.FPTy, S), AlphaAdj[K]), S);
      }
    }
  }
  // The copies are done with.
  FunctionCallee Free =
      module().getOrInsertFunction("free", B.getVoidTy(), B.getPtrTy());
  for (unsigned I = 0; I < (unsigned)A::NumArgs; ++I)
    if (F.Cache[I])
      B.CreateCall(Free, {V.V[I]});
  if (R.Split && any_of(F.Cache, [](Value *C) { return C != nullptr; }))
    Boundary.NotReplayable.push_back("its reverse sweep frees the copies of "
                                     "the arrays '" +
                                     blasName(CB) + "' read");
}

} // namespace tapestry
