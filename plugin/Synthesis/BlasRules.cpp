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
#include "Core/AllocationFunctions.h"
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
    Value *NT = isBlasNoTrans(B, BC, V[A::TransA]);
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
    Value *NT = isBlasNoTrans(B, BC, V[IsA ? A::TransA : A::TransB]);
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
  case BlasRoutine::Lacpy:
    return Matrix(V[A::M], V[A::N], V[Arr == A::A ? A::LDA : A::LDB]);
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
// Both modes
//===----------------------------------------------------------------------===//

/// |Inc|: scal does nothing for a non-positive increment, but gemv, symv
/// and spmv take negative ones; scaling every element is the same in
/// either direction.
static Value *absIncrement(IRBuilderBase &B, Value *Inc) {
  return B.CreateBinaryIntrinsic(Intrinsic::abs, Inc, B.getFalse());
}

/// scal does nothing when its increment is not positive (reference BLAS,
/// OpenBLAS): \p D where the call scaled, zero where it did not.
static Value *scalIncGuard(IRBuilderBase &B, Value *IncX, Value *D) {
  return B.CreateSelect(
      B.CreateICmpSGT(IncX, ConstantInt::get(IncX->getType(), 0)), D,
      ConstantFP::get(D->getType(), 0.0));
}

/// i1: the flag \p F (uplo or diag) is 'U' (CblasUpper or CblasUnit).
static Value *isUFlag(IRBuilderBase &B, const BlasCall &BC, Value *F,
                      unsigned CBlasValue) {
  if (BC.CBlas)
    return B.CreateICmpEQ(F, ConstantInt::get(F->getType(), CBlasValue));
  return B.CreateOr(B.CreateICmpEQ(F, B.getInt8('U')),
                    B.CreateICmpEQ(F, B.getInt8('u')));
}

/// i1: a unit diagonal (trmv, trsv), whose elements are no inputs.
static Value *isUnitDiag(IRBuilderBase &B, const BlasCall &BC,
                         const BlasValues &V) {
  return isUFlag(B, BC, V[A::Diag], 132);
}

/// The BlasEmitter::Part (i32) of the triangle the call's uplo names, in
/// the column-major view of the storage that matrixAxpy takes (a row-major
/// upper triangle is a column-major lower one).
static Value *trianglePart(IRBuilderBase &B, const BlasCall &BC,
                           const BlasValues &V, bool Packed) {
  using P = BlasEmitter::Part;
  Value *Up =
      B.CreateXor(isUFlag(B, BC, V[A::Uplo], 121), isRowMajor(B, BC, V));
  return B.CreateSelect(Up,
                        B.getInt32((int)(Packed ? P::PackedUpper : P::Upper)),
                        B.getInt32((int)(Packed ? P::PackedLower : P::Lower)));
}

/// The name of the routine as the user wrote it, for messages.
static std::string blasName(const CallBase &CB) {
  return CB.getCalledFunction()->getName().str();
}

/// True if the Fortran integer argument \p Op visibly points to a 64-bit
/// integer (an ILP64 BLAS's): a local or global of that type, or a 64-bit
/// store to it. The rules read and pass BLAS's default 32-bit integers.
static bool isWideFortranInteger(const Value *Op) {
  const Value *Obj = getUnderlyingObject(Op);
  Type *T = nullptr;
  if (auto *AI = dyn_cast<AllocaInst>(Obj))
    T = AI->getAllocatedType();
  else if (auto *GV = dyn_cast<GlobalVariable>(Obj))
    T = GV->getValueType();
  if (T && T->isIntegerTy() && T->getIntegerBitWidth() > 32)
    return true;
  return any_of(Op->users(), [&](const User *U) {
    auto *SI = dyn_cast<StoreInst>(U);
    Type *VT = SI && SI->getPointerOperand() == Op
                   ? SI->getValueOperand()->getType()
                   : nullptr;
    return VT && VT->isIntegerTy() && VT->getIntegerBitWidth() > 32;
  });
}

/// Rejects what the rules below do not cover: 64-bit Fortran integers, and
/// active inputs whose output has no shadow. True if the call can be
/// differentiated.
template <class Fail>
static bool checkBlasCall(const CallBase &CB, const BlasCall &BC,
                          const ActivityInfo &AI, Fail F) {
  for (BlasArg Arg :
       {A::M, A::N, A::K, A::LDA, A::LDB, A::LDC, A::IncX, A::IncY})
    if (!BC.CBlas && BC.has(Arg) &&
        isWideFortranInteger(CB.getArgOperand(BC.index(Arg)))) {
      F("'" + blasName(CB) +
        "' is passed a 64-bit integer (an ILP64 BLAS interface); Tapestry "
        "differentiates Fortran BLAS with 32-bit integers only: pass 'int' "
        "dimensions and increments and link a 32-bit-integer BLAS (e.g. "
        "-lopenblas)" +
        (BC.Routine == BlasRoutine::Lacpy
             ? std::string()
             : ", or call the CBLAS interface (cblas_" +
                   std::string(BC.FPTy->isDoubleTy() ? "d" : "s") +
                   BC.Base.str() + ")"));
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
    case BlasRoutine::Symv:
    case BlasRoutine::Spmv:
      if (Value *DY = Shadow(A::Y, K)) {
        // dy = beta dy + alpha op(dA) x + alpha op(A) dx + dalpha op(A) x
        // + dbeta y (A constant for symv and spmv): each term one call of
        // the routine, the first one scaling dy by beta.
        Value *Beta = V[A::Beta];
        bool Scaled = false;
        Value *T = V[A::TransA], *M = V[A::M], *LDA = V[A::LDA];
        Value *LenY = T ? B.CreateSelect(E.isNoTrans(B, T), M, N) : N;
        auto Term = [&](Value *Al, Value *Mat, Value *Vec, Value *Inc) {
          if (BC.Routine == BlasRoutine::Gemv)
            E.gemv(B, T, M, N, Al, Mat, LDA, Vec, Inc, Beta, DY, IncY);
          else if (BC.Routine == BlasRoutine::Symv)
            E.symv(B, V[A::Uplo], N, Al, Mat, LDA, Vec, Inc, Beta, DY, IncY);
          else
            E.spmv(B, V[A::Uplo], N, Al, Mat, Vec, Inc, Beta, DY, IncY);
          Beta = E.fp(1.0);
          Scaled = true;
        };
        if (Value *DA = Shadow(A::A, K))
          Term(Alpha, DA, X, IncX);
        if (Value *DX = Shadow(A::X, K))
          Term(Alpha, V[A::A], DX, IncX);
        if (Value *DAl = ScalarTangent(A::Alpha, K))
          Term(DAl, V[A::A], X, IncX);
        if (!Scaled) // none: dy = beta dy
          E.scal(B, LenY, Beta, DY, absIncrement(B, IncY));
        if (Value *DBe = ScalarTangent(A::Beta, K))
          E.axpy(B, LenY, DBe, Y, IncY, DY, IncY);
      }
      break;
    case BlasRoutine::Gemm:
      if (Value *DC = Shadow(A::C, K)) {
        // dC = beta dC + alpha op(dA) op(B) + alpha op(A) op(dB).
        Value *Beta = V[A::Beta];
        bool Scaled = false;
        Value *TA = V[A::TransA], *TB = V[A::TransB], *M = V[A::M],
              *K3 = V[A::K], *LDA = V[A::LDA], *LDB = V[A::LDB],
              *LDC = V[A::LDC];
        // ... + dalpha op(A) op(B) + dbeta C.
        auto Term = [&](Value *Al, Value *MA, Value *MB) {
          E.gemm(B, TA, TB, M, N, K3, Al, MA, LDA, MB, LDB, Beta, DC, LDC);
          Beta = E.fp(1.0);
          Scaled = true;
        };
        if (Value *DA = Shadow(A::A, K))
          Term(Alpha, DA, V[A::B]);
        if (Value *DB = Shadow(A::B, K))
          Term(Alpha, V[A::A], DB);
        if (Value *DAl = ScalarTangent(A::Alpha, K))
          Term(DAl, V[A::A], V[A::B]);
        if (!Scaled) // none: dC = beta dC (alpha 0 reads no A, B)
          Term(E.fp(0.0), V[A::A], V[A::B]);
        if (Value *DBe = ScalarTangent(A::Beta, K)) {
          Value *Row = isRowMajor(B, BC, V);
          E.matrixAxpy(B, B.getInt32((int)BlasEmitter::Part::Full),
                       B.CreateSelect(Row, M, N), B.CreateSelect(Row, N, M),
                       DBe, V[A::C], LDC, DC, LDC);
        }
      }
      break;
    case BlasRoutine::Lacpy:
      // dB = dA over the copied part.
      if (Value *DB = Shadow(A::B, K)) {
        if (Value *DA = Shadow(A::A, K))
          E.lacpy(B, V[A::Uplo], V[A::M], N, DA, V[A::LDA], DB, V[A::LDB]);
        else
          E.laset(B, V[A::Uplo], V[A::M], N, E.fp(0.0), E.fp(0.0), DB,
                  V[A::LDB]);
      }
      break;
    case BlasRoutine::Trmv:
    case BlasRoutine::Trsv:
      // x = op(A) x: dx = op(A) dx + op(dA) x; x = op(A)^-1 x: dx =
      // op(A)^-1 (dx - op(dA) op(A)^-1 x). dA's triangle counts, its
      // diagonal not when the diagonal is unit.
      if (Value *DX = Shadow(A::X, K)) {
        Value *DA = Shadow(A::A, K), *Prod = nullptr;
        Value *One = ConstantInt::get(N->getType(), 1);
        auto Tri = [&](StringRef R, Value *Mat, Value *Vec, Value *Inc) {
          E.triangular(B, R, V[A::Uplo], V[A::TransA], V[A::Diag], N, Mat,
                       V[A::LDA], Vec, Inc);
        };
        bool Solve = BC.Routine == BlasRoutine::Trsv;
        if (DA) {
          // Vec: x, or the solution op(A)^-1 x; Prod = op(dA) Vec.
          Value *Vec = E.scratch(B, N);
          E.copy(B, N, X, IncX, Vec, One);
          if (Solve)
            Tri("trsv", V[A::A], Vec, One);
          Prod = E.scratch(B, N);
          E.copy(B, N, Vec, One, Prod, One);
          Tri("trmv", DA, Prod, One);
          // trmv with a unit diagonal added Vec itself.
          E.axpy(B, N,
                 B.CreateSelect(isUnitDiag(B, BC, V), E.fp(-1.0), E.fp(0.0)),
                 Vec, One, Prod, One);
          E.release(B, Vec);
          if (Solve)
            E.axpy(B, N, E.fp(-1.0), Prod, One, DX, IncX);
        }
        Tri(BC.Base, V[A::A], DX, IncX);
        if (Prod && !Solve)
          E.axpy(B, N, E.fp(1.0), Prod, One, DX, IncX);
        if (Prod)
          E.release(B, Prod);
      }
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
  bool Beta = isActiveBlasScalar(CB, BC, A::Beta, AI);
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
  case BlasRoutine::Symv:
  case BlasRoutine::Spmv:
    // d alpha = <dy, op(A) x>, d beta = <dy, y as the call found it>.
    if (!Has(A::Y))
      break;
    if (Has(A::X) || Alpha)
      Need.push_back(A::A);
    if (Has(A::A) || Alpha)
      Need.push_back(A::X);
    if (Beta)
      Need.push_back(A::Y);
    break;
  case BlasRoutine::Gemm:
    if (!Has(A::C))
      break;
    if (Has(A::B) || Alpha)
      Need.push_back(A::A);
    if (Has(A::A) || Alpha)
      Need.push_back(A::B);
    if (Beta)
      Need.push_back(A::C);
    break;
  case BlasRoutine::Trmv:
  case BlasRoutine::Trsv:
    if (Has(A::X))
      Need.push_back(A::A);
    if (Has(A::A)) // x as the call found it
      Need.push_back(A::X);
    break;
  case BlasRoutine::Copy:
  case BlasRoutine::Lacpy:
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
    Value *Copy = B.CreateCall(getMallocFn(module()), {Bytes}, "blas.cache");
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
  bool Beta = isActiveBlasScalar(CB, BC, A::Beta, AI);
  // Adjoints of alpha and beta, per lane: into the argument's adjoint
  // (CBLAS) or added to its shadow memory (Fortran).
  SmallVector<Value *, 4> AlphaAdj, BetaAdj;
  auto Scratch = [&](Value *Len) { return E.scratch(B, Len); };
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
        Value *LenY = B.CreateSelect(NT, M, N);
        if (Alpha) { // <dy, op(A) x>
          Value *S = Scratch(LenY), *One = ConstantInt::get(N->getType(), 1);
          E.gemv(B, T, M, N, E.fp(1.0), V[A::A], LDA, X, IncX, E.fp(0.0), S,
                 One);
          AlphaAdj.push_back(E.dot(B, LenY, DY, IncY, S, One));
          E.release(B, S);
        }
        if (Beta)
          BetaAdj.push_back(E.dot(B, LenY, DY, IncY, Y, IncY));
        E.scal(B, LenY, V[A::Beta], DY, absIncrement(B, IncY));
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
        // d alpha = <dC, op(A) op(B)>, d beta = <dC, C as the call found
        // it>, column by column (rows if row-major).
        Value *Row = isRowMajor(B, BC, V);
        Value *Outer = B.CreateSelect(Row, M, N),
              *Inner = B.CreateSelect(Row, N, M);
        if (Alpha) {
          Value *S = Scratch(B.CreateMul(B.CreateSExt(M, B.getInt64Ty()),
                                         B.CreateSExt(N, B.getInt64Ty())));
          Value *One = ConstantInt::get(Inner->getType(), 1);
          Value *LDS = B.CreateSelect(B.CreateICmpSGT(Inner, One), Inner, One);
          E.gemm(B, TA, TB, M, N, K3, E.fp(1.0), MA, LDA, MB, LDB, E.fp(0.0), S,
                 LDS);
          AlphaAdj.push_back(E.matrixDot(B, Outer, Inner, DC, LDC, S, LDS));
          E.release(B, S);
        }
        if (Beta)
          BetaAdj.push_back(
              E.matrixDot(B, Outer, Inner, DC, LDC, V[A::C], LDC));
        // dC = beta dC: gemm with alpha 0 reads no A, B.
        E.gemm(B, TA, TB, M, N, K3, E.fp(0.0), MA, LDA, MB, LDB, V[A::Beta], DC,
               LDC);
      }
      break;
    case BlasRoutine::Symv:
    case BlasRoutine::Spmv:
      // dx += alpha A dy (A symmetric); dy *= beta.
      if (Value *DY = Shadow(A::Y, K)) {
        bool Packed = BC.Routine == BlasRoutine::Spmv;
        if (Value *DA = Shadow(A::A, K)) {
          // The symmetric matrix S gets alpha dy x^T; an element of A's
          // triangle stands for S_ij and S_ji: off the diagonal it gets
          // alpha (dy_i x_j + x_i dy_j), on it alpha dy_i x_i. So T =
          // alpha (dy x^T + x dy^T), its diagonal halved, its triangle
          // added to dA.
          Value *T = Scratch(B.CreateMul(B.CreateSExt(N, B.getInt64Ty()),
                                         B.CreateSExt(N, B.getInt64Ty())));
          Value *One = ConstantInt::get(N->getType(), 1);
          Value *LDT = B.CreateSelect(B.CreateICmpSGT(N, One), N, One);
          E.ger(B, N, N, Al, DY, IncY, X, IncX, T, LDT);
          E.ger(B, N, N, Al, X, IncX, DY, IncY, T, LDT);
          E.scal(B, N, E.fp(0.5), T, B.CreateAdd(LDT, One));
          E.matrixAxpy(B, trianglePart(B, BC, V, Packed), N, N, E.fp(1.0), T,
                       LDT, DA, Packed ? LDT : V[A::LDA]);
          E.release(B, T);
        }
        if (Value *DX = Shadow(A::X, K)) {
          if (BC.Routine == BlasRoutine::Symv)
            E.symv(B, V[A::Uplo], N, Al, V[A::A], V[A::LDA], DY, IncY,
                   E.fp(1.0), DX, IncX);
          else
            E.spmv(B, V[A::Uplo], N, Al, V[A::A], DY, IncY, E.fp(1.0), DX,
                   IncX);
        }
        if (Alpha) { // <dy, A x>
          Value *S = Scratch(N), *One = ConstantInt::get(N->getType(), 1);
          if (BC.Routine == BlasRoutine::Symv)
            E.symv(B, V[A::Uplo], N, E.fp(1.0), V[A::A], V[A::LDA], X, IncX,
                   E.fp(0.0), S, One);
          else
            E.spmv(B, V[A::Uplo], N, E.fp(1.0), V[A::A], X, IncX, E.fp(0.0), S,
                   One);
          AlphaAdj.push_back(E.dot(B, N, DY, IncY, S, One));
          E.release(B, S);
        }
        if (Beta)
          BetaAdj.push_back(E.dot(B, N, DY, IncY, Y, IncY));
        E.scal(B, N, V[A::Beta], DY, absIncrement(B, IncY));
      }
      break;
    case BlasRoutine::Trmv:
    case BlasRoutine::Trsv:
      // x = op(A) x0: dx0 = op(A)^T dx, and d op(A) = dx x0^T;
      // x = op(A)^-1 x0: dx0 = op(A)^-T dx, and d op(A) = -dx0 x^T (x
      // solved again from the kept x0). Over A's triangle, without the
      // diagonal when it is unit.
      if (Value *DX = Shadow(A::X, K)) {
        bool Solve = BC.Routine == BlasRoutine::Trsv;
        Value *DA = Shadow(A::A, K);
        Value *One = ConstantInt::get(N->getType(), 1);
        auto AddOuter = [&](Value *Scale, Value *U, Value *IncU, Value *Vv,
                            Value *IncV) {
          // dA += Scale (U Vv^T for op(A) = A, Vv U^T for A^T).
          Value *T = Scratch(B.CreateMul(B.CreateSExt(N, B.getInt64Ty()),
                                         B.CreateSExt(N, B.getInt64Ty())));
          Value *LDT = B.CreateSelect(B.CreateICmpSGT(N, One), N, One);
          Value *NT = E.isNoTrans(B, V[A::TransA]);
          E.ger(B, N, N, Scale, B.CreateSelect(NT, U, Vv),
                B.CreateSelect(NT, IncU, IncV), B.CreateSelect(NT, Vv, U),
                B.CreateSelect(NT, IncV, IncU), T, LDT);
          E.zero(B,
                 B.CreateSelect(isUnitDiag(B, BC, V), N,
                                ConstantInt::get(N->getType(), 0)),
                 T, B.CreateAdd(LDT, One));
          E.matrixAxpy(B, trianglePart(B, BC, V, false), N, N, E.fp(1.0), T,
                       LDT, DA, V[A::LDA]);
          E.release(B, T);
        };
        if (DA && !Solve)
          AddOuter(E.fp(1.0), DX, IncX, X, IncX);
        E.triangular(B, BC.Base, V[A::Uplo], E.flip(B, V[A::TransA]),
                     V[A::Diag], N, V[A::A], V[A::LDA], DX, IncX);
        if (DA && Solve) {
          Value *Sol = Scratch(N);
          E.copy(B, N, X, IncX, Sol, One);
          E.triangular(B, "trsv", V[A::Uplo], V[A::TransA], V[A::Diag], N,
                       V[A::A], V[A::LDA], Sol, One);
          AddOuter(E.fp(-1.0), DX, IncX, Sol, One);
          E.release(B, Sol);
        }
      }
      break;
    case BlasRoutine::Lacpy:
      // dA += dB over the copied part ('U': the upper triangle, 'L': the
      // lower one, else all), then that part of dB is zero.
      if (Value *DB = Shadow(A::B, K)) {
        Value *U = V[A::Uplo];
        auto Is = [&](char C) {
          return B.CreateOr(B.CreateICmpEQ(U, B.getInt8(C)),
                            B.CreateICmpEQ(U, B.getInt8(C + ('a' - 'A'))));
        };
        if (Value *DA = Shadow(A::A, K)) {
          using P = BlasEmitter::Part;
          Value *Part =
              B.CreateSelect(Is('U'), B.getInt32((int)P::Upper),
                             B.CreateSelect(Is('L'), B.getInt32((int)P::Lower),
                                            B.getInt32((int)P::Full)));
          E.matrixAxpy(B, Part, N, V[A::M], E.fp(1.0), DB, V[A::LDB], DA,
                       V[A::LDA]);
        }
        E.laset(B, U, V[A::M], N, E.fp(0.0), E.fp(0.0), DB, V[A::LDB]);
      }
      break;
    }
  }
  for (auto [Arg, Adj] :
       {std::pair(A::Alpha, &AlphaAdj), std::pair(A::Beta, &BetaAdj)}) {
    if (Adj->empty())
      continue;
    Value *Op = Operand(Arg);
    if (BC.CBlas) {
      addAdjoint(Op, lanes(B, BC.FPTy, [&](unsigned K) { return (*Adj)[K]; }),
                 B);
    } else {
      for (unsigned K = 0; K < W; ++K) {
        Value *S = Shadow(Arg, K);
        B.CreateStore(B.CreateFAdd(B.CreateLoad(BC.FPTy, S), (*Adj)[K]), S);
      }
    }
  }
  // The copies are done with.
  FunctionCallee Free = getFreeFn(module());
  for (unsigned I = 0; I < (unsigned)A::NumArgs; ++I)
    if (F.Cache[I])
      B.CreateCall(Free, {V.V[I]});
  if (R.Split && any_of(F.Cache, [](Value *C) { return C != nullptr; }))
    Boundary.NotReplayable.push_back("its reverse sweep frees the copies of "
                                     "the arrays '" +
                                     blasName(CB) + "' read");
}

} // namespace tapestry
