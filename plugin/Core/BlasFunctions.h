//===- BlasFunctions.h - Recognise calls to BLAS routines -------*- C++ -*-===//
//
// BLAS routines are differentiated by name, as Enzyme does: their
// derivatives call BLAS again (Synthesis/BlasRules.cpp). This file only
// recognises a call and says where each of the routine's arguments is, in
// both spellings users write:
//   CBLAS    cblas_dgemv(order, trans, m, n, alpha, A, lda, x, incx, ...)
//            integers, scalars and flags by value, an order argument;
//   Fortran  dgemv_(&trans, &m, &n, &alpha, A, &lda, x, &incx, ...)
//            everything by reference, column-major, optionally followed by
//            the hidden lengths of character arguments (gfortran's ABI).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_BLASFUNCTIONS_H
#define TAPESTRY_CORE_BLASFUNCTIONS_H

#include "llvm/ADT/StringRef.h"
#include <optional>

namespace llvm {
class CallBase;
class Type;
} // namespace llvm

namespace tapestry {

enum class BlasRoutine {
  Dot,
  Axpy,
  Scal,
  Copy,
  Nrm2,
  Gemv,
  Gemm,
  Symv,
  Spmv,
  Trmv,
  Trsv,
  /// LAPACK's matrix copy, Fortran spelling only (dlacpy_): Debian's
  /// OpenBLAS has no LAPACKE.
  Lacpy
};

/// The logical arguments of the supported routines. Not every routine has
/// every one.
enum class BlasArg {
  Order,  // CBLAS only: CblasRowMajor (101) or CblasColMajor (102)
  TransA, // CblasNoTrans (111) / CblasTrans (112), or 'N' / 'T'
  TransB,
  Uplo, // CblasUpper (121) / CblasLower (122), or 'U' / 'L'
  Diag, // CblasNonUnit (131) / CblasUnit (132), or 'N' / 'U'
  M,
  N,
  K,
  Alpha,
  A,
  LDA,
  B,
  LDB,
  X,
  IncX,
  Beta,
  Y,
  IncY,
  C,
  LDC,
  NumArgs
};

struct BlasCall {
  BlasRoutine Routine;
  /// CBLAS (by value, with an order argument) or Fortran (by reference).
  bool CBlas = false;
  /// double or float.
  llvm::Type *FPTy = nullptr;
  /// The routine's name without prefix, suffix and precision ("gemv").
  llvm::StringRef Base;
  /// Call argument index of each logical argument, -1 if it has none.
  int Index[(unsigned)BlasArg::NumArgs];

  bool has(BlasArg A) const { return Index[(unsigned)A] >= 0; }
  unsigned index(BlasArg A) const { return Index[(unsigned)A]; }
};

/// The BLAS call \p CB makes (to a declaration named cblas_<p><routine> or
/// <p><routine>_, p being d or s, with the routine's argument count), or
/// nothing.
std::optional<BlasCall> findBlasCall(const llvm::CallBase &CB);
inline bool isBlasCall(const llvm::CallBase &CB) {
  return findBlasCall(CB).has_value();
}

/// The array argument the routine writes (Y; X for scal, trmv and trsv; C
/// for gemm; B for lacpy), or BlasArg::NumArgs for none (dot, nrm2).
BlasArg blasOutput(const BlasCall &BC);

/// If \p Name is a BLAS or LAPACK routine Tapestry has no derivative for
/// (dsyrk_, cblas_dtrsm, ...), its name without prefix and suffix; else "".
llvm::StringRef unsupportedBlasRoutine(llvm::StringRef Name);

} // namespace tapestry

#endif // TAPESTRY_CORE_BLASFUNCTIONS_H
