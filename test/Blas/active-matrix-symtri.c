// Derivatives with respect to the matrix of symv, spmv, trmv and trsv
// (CBLAS in both orders, Fortran, single precision): only the triangle the
// routine reads is an input (and not the diagonal when it is unit). Reverse
// builds the outer product with dger and adds its triangle column by
// column (daxpy); trsv solves again from the kept right-hand side. Reverse
// against central finite differences (which give 0 for the elements the
// routine never reads), forward against reverse; single precision against
// an analytic gradient.
// RUN: %clang -O0 %s -lopenblas -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lopenblas -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lopenblas -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lopenblas -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <cblas.h>
#include <stdlib.h>
#include <string.h>

void dsymv_(const char *uplo, const int *n, const double *alpha,
            const double *A, const int *lda, const double *x, const int *incx,
            const double *beta, double *y, const int *incy);
void dspmv_(const char *uplo, const int *n, const double *alpha,
            const double *AP, const double *x, const int *incx,
            const double *beta, double *y, const int *incy);
void dtrmv_(const char *uplo, const char *trans, const char *diag,
            const int *n, const double *A, const int *lda, double *x,
            const int *incx);
void dtrsv_(const char *uplo, const char *trans, const char *diag,
            const int *n, const double *A, const int *lda, double *x,
            const int *incx);

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#include "../Integration/Inputs/gradcheck.h"

#include "Inputs/kernel-check.h"

static double wsq(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (1.0 + 0.25 * i) * v[i] * v[i] + 0.1 * v[i];
  return s;
}

/* y = alpha S x + beta y, S 4 x 4 from a triangle of A (lda 5, p[0:20]);
 * x p[20:24], alpha p[24]; A's other triangle is never read. */
#define SYMV_KERNEL(name, ORDER, UPLO, INCX)                                   \
  __attribute__((noinline)) double name(double *p) {                           \
    double y[4] = {0.5, -0.25, 1, 0.75}, x[8];                                 \
    for (int i = 0; i < 8; i++)                                                \
      x[i] = p[20 + i % 4];                                                    \
    cblas_dsymv(ORDER, UPLO, 4, p[24], p, 5, x, INCX, 0.5, y, 1);              \
    p[3] = 7; /* A overwritten after the call */                               \
    return wsq(y, 4);                                                          \
  }                                                                            \
  KERNEL(name, 25)

SYMV_KERNEL(symv_col_u, CblasColMajor, CblasUpper, 1)
SYMV_KERNEL(symv_col_l, CblasColMajor, CblasLower, -2)
SYMV_KERNEL(symv_row_u, CblasRowMajor, CblasUpper, 2)
SYMV_KERNEL(symv_row_l, CblasRowMajor, CblasLower, 1)

/* Packed: AP p[0:10], x p[10:14]. */
#define SPMV_KERNEL(name, ORDER, UPLO)                                         \
  __attribute__((noinline)) double name(double *p) {                           \
    double y[4] = {0.5, -0.25, 1, 0.75};                                       \
    cblas_dspmv(ORDER, UPLO, 4, 1.5, p, p + 10, 1, 1.0, y, -1);                \
    return wsq(y, 4);                                                          \
  }                                                                            \
  KERNEL(name, 14)

SPMV_KERNEL(spmv_col_u, CblasColMajor, CblasUpper)
SPMV_KERNEL(spmv_col_l, CblasColMajor, CblasLower)
SPMV_KERNEL(spmv_row_u, CblasRowMajor, CblasUpper)
SPMV_KERNEL(spmv_row_l, CblasRowMajor, CblasLower)

/* x = op(A) x or op(A)^-1 x, A 4 x 4 (lda 5) from p[0:20] with its
 * diagonal made dominant, x p[20:24] (increment INCX). */
#define TRI_KERNEL(name, FN, ORDER, UPLO, TRANS, DIAG, INCX)                   \
  __attribute__((noinline)) double name(double *p) {                           \
    double A[20], x[8];                                                        \
    for (int i = 0; i < 20; i++)                                               \
      A[i] = p[i] + (i % 6 == 0 ? 3.0 : 0.0);                                  \
    for (int i = 0; i < 8; i++)                                                \
      x[i] = p[20 + i % 4] * (1 + 0.1 * i);                                    \
    FN(ORDER, UPLO, TRANS, DIAG, 4, A, 5, x, INCX);                            \
    return wsq(x, 8);                                                          \
  }                                                                            \
  KERNEL(name, 24)

TRI_KERNEL(trmv_cunn, cblas_dtrmv, CblasColMajor, CblasUpper, CblasNoTrans,
           CblasNonUnit, 1)
TRI_KERNEL(trmv_cltu, cblas_dtrmv, CblasColMajor, CblasLower, CblasTrans,
           CblasUnit, 2)
TRI_KERNEL(trmv_rutn, cblas_dtrmv, CblasRowMajor, CblasUpper, CblasTrans,
           CblasNonUnit, -1)
TRI_KERNEL(trmv_rlnu, cblas_dtrmv, CblasRowMajor, CblasLower, CblasNoTrans,
           CblasUnit, 1)
TRI_KERNEL(trsv_cunn, cblas_dtrsv, CblasColMajor, CblasUpper, CblasNoTrans,
           CblasNonUnit, 1)
TRI_KERNEL(trsv_cltu, cblas_dtrsv, CblasColMajor, CblasLower, CblasTrans,
           CblasUnit, -2)
TRI_KERNEL(trsv_rutn, cblas_dtrsv, CblasRowMajor, CblasUpper, CblasTrans,
           CblasNonUnit, 1)
TRI_KERNEL(trsv_rlnu, cblas_dtrsv, CblasRowMajor, CblasLower, CblasNoTrans,
           CblasUnit, 2)

/* Fortran: the four routines in a chain, every matrix active. */
__attribute__((noinline)) double f_fortran(double *p) {
  int n = 3, lda = 4, one = 1;
  double A[12], AP[6], x[3], y[3] = {0.2, -0.1, 0.3}, alpha = 0.75,
                               beta = 1.0;
  for (int i = 0; i < 12; i++)
    A[i] = p[i] + (i % 5 == 0 ? 2.5 : 0.0);
  for (int i = 0; i < 6; i++)
    AP[i] = p[12 + i];
  for (int i = 0; i < 3; i++)
    x[i] = p[18 + i];
  dsymv_("u", &n, &alpha, A, &lda, x, &one, &beta, y, &one);
  dspmv_("L", &n, &alpha, AP, y, &one, &beta, x, &one);
  dtrmv_("L", "N", "N", &n, A, &lda, x, &one);
  dtrsv_("U", "T", "U", &n, A, &lda, x, &one);
  return wsq(x, 3) + wsq(y, 3);
}
KERNEL(f_fortran, 21)

/* Single precision: y = S x, S from the upper triangle (ld 2), loss y.y:
 * d a_01 = 2 (y_0 x_1 + y_1 x_0), d a_ii = 2 y_i x_i, d a_10 = 0. */
__attribute__((noinline)) float s_loss(float *A, const float *x) {
  float y[2];
  cblas_ssymv(CblasColMajor, CblasUpper, 2, 1.0f, A, 2, x, 1, 0.0f, y, 1);
  return y[0] * y[0] + y[1] * y[1];
}
static void s_check(void) {
  float A[4] = {1.5f, 9.0f, -0.5f, 0.75f}, x[2] = {0.3f, -1.1f}, dA[4] = {0};
  __enzyme_autodiff((void *)s_loss, enzyme_dup, A, dA, enzyme_const, x);
  double y0 = A[0] * x[0] + A[2] * x[1], y1 = A[2] * x[0] + A[3] * x[1];
  check_close("s_loss: d a_00", dA[0], 2 * y0 * x[0], 1e-5);
  check_close("s_loss: d a_10 (not read)", dA[1], 0, 1e-6);
  check_close("s_loss: d a_01", dA[2], 2 * (y0 * x[1] + y1 * x[0]), 1e-5);
  check_close("s_loss: d a_11", dA[3], 2 * y1 * x[1], 1e-5);
}

int main(void) {
  symv_col_u_check(1);
  symv_col_l_check(2);
  symv_row_u_check(3);
  symv_row_l_check(4);
  spmv_col_u_check(5);
  spmv_col_l_check(6);
  spmv_row_u_check(7);
  spmv_row_l_check(8);
  trmv_cunn_check(9);
  trmv_cltu_check(10);
  trmv_rutn_check(11);
  trmv_rlnu_check(12);
  trsv_cunn_check(13);
  trsv_cltu_check(14);
  trsv_rutn_check(15);
  trsv_rlnu_check(16);
  f_fortran_check(17);
  s_check();
  return check_report();
}
