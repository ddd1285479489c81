//===- BlasFunctions.cpp - Recognise calls to BLAS routines ---------------===//
//
// Implements BlasFunctions.h with one table of the supported routines (their
// arguments in CBLAS order and how many are characters); findBlasCall splits a
// callee name into CBLAS or Fortran spelling and precision and maps each
// argument to its operand, blasOutput names the argument a routine writes, and
// unsupportedBlasRoutine gives the message for a BLAS name without a rule. The
// derivatives themselves are Synthesis/BlasRules.cpp.
//
//===----------------------------------------------------------------------===//
#include "Core/BlasFunctions.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace tapestry {

namespace {
using A = BlasArg;
struct RoutineInfo {
  const char *Name;
  BlasRoutine Routine;
  /// The arguments in call order (CBLAS order; Fortran has no Order).
  std::initializer_list<BlasArg> Args;
  /// Character arguments (Fortran's hidden lengths follow the arguments).
  unsigned NumChars;
  /// Returns a floating-point value (dot, nrm2) rather than void.
  bool ReturnsFP;
  /// LAPACK: only the Fortran spelling (dlacpy_), no cblas_ one.
  bool FortranOnly = false;
};
const RoutineInfo Routines[] = {
    {"dot", BlasRoutine::Dot, {A::N, A::X, A::IncX, A::Y, A::IncY}, 0, true},
    {"axpy",
     BlasRoutine::Axpy,
     {A::N, A::Alpha, A::X, A::IncX, A::Y, A::IncY},
     0,
     false},
    {"scal", BlasRoutine::Scal, {A::N, A::Alpha, A::X, A::IncX}, 0, false},
    {"copy", BlasRoutine::Copy, {A::N, A::X, A::IncX, A::Y, A::IncY}, 0, false},
    {"nrm2", BlasRoutine::Nrm2, {A::N, A::X, A::IncX}, 0, true},
    {"gemv",
     BlasRoutine::Gemv,
     {A::Order, A::TransA, A::M, A::N, A::Alpha, A::A, A::LDA, A::X, A::IncX,
      A::Beta, A::Y, A::IncY},
     1,
     false},
    {"gemm",
     BlasRoutine::Gemm,
     {A::Order, A::TransA, A::TransB, A::M, A::N, A::K, A::Alpha, A::A, A::LDA,
      A::B, A::LDB, A::Beta, A::C, A::LDC},
     2,
     false},
    {"symv",
     BlasRoutine::Symv,
     {A::Order, A::Uplo, A::N, A::Alpha, A::A, A::LDA, A::X, A::IncX, A::Beta,
      A::Y, A::IncY},
     1,
     false},
    {"spmv",
     BlasRoutine::Spmv,
     {A::Order, A::Uplo, A::N, A::Alpha, A::A, A::X, A::IncX, A::Beta, A::Y,
      A::IncY},
     1,
     false},
    {"trmv",
     BlasRoutine::Trmv,
     {A::Order, A::Uplo, A::TransA, A::Diag, A::N, A::A, A::LDA, A::X, A::IncX},
     3,
     false},
    {"trsv",
     BlasRoutine::Trsv,
     {A::Order, A::Uplo, A::TransA, A::Diag, A::N, A::A, A::LDA, A::X, A::IncX},
     3,
     false},
    {"lacpy",
     BlasRoutine::Lacpy,
     {A::Uplo, A::M, A::N, A::A, A::LDA, A::B, A::LDB},
     1,
     false,
     true},
};
} // namespace

/// Splits "cblas_dgemv" / "dgemv_" into (CBLAS?, precision letter, base).
static bool splitName(StringRef Name, bool &CBlas, char &Prec,
                      StringRef &Base) {
  CBlas = Name.consume_front("cblas_");
  if (!CBlas && !Name.consume_back("_"))
    return false;
  if (Name.size() < 3 || (Name[0] != 'd' && Name[0] != 's'))
    return false;
  Prec = Name[0];
  Base = Name.drop_front();
  return true;
}

std::optional<BlasCall> findBlasCall(const CallBase &CB) {
  const Function *F = CB.getCalledFunction();
  if (!F || !F->isDeclaration())
    return std::nullopt;
  bool CBlas;
  char Prec;
  StringRef Base;
  if (!splitName(F->getName(), CBlas, Prec, Base))
    return std::nullopt;
  const RoutineInfo *Info =
      find_if(Routines, [&](const RoutineInfo &R) { return Base == R.Name; });
  if (Info == std::end(Routines) || (CBlas && Info->FortranOnly))
    return std::nullopt;
  LLVMContext &C = F->getContext();
  BlasCall Call;
  Call.Routine = Info->Routine;
  Call.CBlas = CBlas;
  Call.FPTy = Prec == 'd' ? Type::getDoubleTy(C) : Type::getFloatTy(C);
  Call.Base = Info->Name;
  std::fill(std::begin(Call.Index), std::end(Call.Index), -1);
  unsigned I = 0;
  for (BlasArg Arg : Info->Args) {
    if (Arg == BlasArg::Order && !CBlas)
      continue;
    Call.Index[(unsigned)Arg] = I++;
  }
  unsigned Extra = CB.arg_size() - I;
  if (CB.arg_size() < I ||
      (CBlas ? Extra != 0 : Extra != 0 && Extra != Info->NumChars))
    return std::nullopt;
  // The shape: arrays are pointers; a CBLAS call takes integers and scalars
  // by value; a Fortran call takes everything by reference.
  for (BlasArg Arg : Info->Args) {
    if (!Call.has(Arg))
      continue;
    Type *T = CB.getArgOperand(Call.index(Arg))->getType();
    bool Array =
        Arg == A::A || Arg == A::B || Arg == A::C || Arg == A::X || Arg == A::Y;
    bool Scalar = Arg == A::Alpha || Arg == A::Beta;
    if (Array || !CBlas) {
      if (!T->isPointerTy())
        return std::nullopt;
    } else if (Scalar ? T != Call.FPTy : !T->isIntegerTy()) {
      return std::nullopt;
    }
  }
  Type *RetTy = CB.getType();
  if (Info->ReturnsFP ? RetTy != Call.FPTy : !RetTy->isVoidTy())
    return std::nullopt;
  return Call;
}

BlasArg blasOutput(const BlasCall &BC) {
  switch (BC.Routine) {
  case BlasRoutine::Dot:
  case BlasRoutine::Nrm2:
    return A::NumArgs;
  case BlasRoutine::Scal:
  case BlasRoutine::Trmv:
  case BlasRoutine::Trsv:
    return A::X;
  case BlasRoutine::Gemm:
    return A::C;
  case BlasRoutine::Lacpy:
    return A::B;
  default:
    return A::Y;
  }
}

StringRef unsupportedBlasRoutine(StringRef Name) {
  static const char *const Known[] = {
      "asum",  "amax",  "amin",  "swap",  "rot",   "rotg", "rotm", "gbmv",
      "sbmv",  "tbmv",  "tpmv",  "tbsv",  "tpsv",  "ger",  "syr",  "spr",
      "syr2",  "spr2",  "symm",  "syrk",  "syr2k", "trmm", "trsm", "laset",
      "potrf", "potrs", "getrf", "getrs", "gesv",  "posv", "lascl"};
  bool CBlas;
  char Prec;
  StringRef Base;
  if (!splitName(Name, CBlas, Prec, Base))
    return "";
  for (const char *K : Known)
    if (Base == K)
      return Name.drop_front(CBlas ? 6 : 0).drop_back(CBlas ? 0 : 1);
  return "";
}

} // namespace tapestry
