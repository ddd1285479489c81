// Derivatives with respect to alpha and beta of gemv, gemm, symv and spmv
// (CBLAS in both orders, Fortran with the scalars in locals that receive
// active values, single precision): forward adds dalpha op(A) x and
// dbeta y; reverse forms <dy, op(A) x> (a scratch product) and <dy, y as
// the call found it> (the forward sweep keeps y's old value). Reverse mode
// against central finite differences, forward against reverse; single
// precision against an analytic gradient.
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

void dgemv_(const char *trans, const int *m, const int *n, const double *alpha,
            const double *A, const int *lda, const double *x, const int *incx,
            const double *beta, double *y, const int *incy);
void dgemm_(const char *ta, const char *tb, const int *m, const int *n,
            const int *k, const double *alpha, const double *A, const int *lda,
            const double *B, const int *ldb, const double *beta, double *C,
            const int *ldc);
void dsymv_(const char *uplo, const int *n, const double *alpha,
            const double *A, const int *lda, const double *x, const int *incx,
            const double *beta, double *y, const int *incy);

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#include "../Integration/Inputs/gradcheck.h"

#include "Inputs/kernel-check.h"

static double sumsq(const double *v, int n, int inc) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (1.0 + 0.25 * i) * v[i * inc] * v[i * inc];
  return s;
}

/* y = alpha op(A) x + beta y, A 3 x 4 inside lda 5 (p[0:20]), x p[20:24],
 * y p[24:28] (squared first, so y is computed), alpha p[28], beta p[29];
 * y is then overwritten by a second call with only the scalars active. */
#define GEMV_KERNEL(name, ORDER, TRANS, LENY, INCY)                            \
  __attribute__((noinline)) double name(double *p) {                           \
    double y[8], z[4];                                                         \
    for (int i = 0; i < 8; i++)                                                \
      y[i] = p[24 + i % 4] * p[24 + i % 4] - 0.5;                              \
    for (int i = 0; i < 4; i++)                                                \
      z[i] = 0.1 * i;                                                          \
    cblas_dgemv(ORDER, TRANS, 3, 4, p[28], p, 5, p + 20, 1, p[29], y, INCY);   \
    double s = sumsq(y, 8, 1);                                                 \
    cblas_dgemv(ORDER, TRANS, 3, 4, p[28] * p[29], p, 5, p + 20, 1,            \
                p[28] + 1, z, 1);                                              \
    p[28] = 0; /* alpha's variable overwritten after the calls */              \
    return s + sumsq(z, LENY, 1);                                              \
  }                                                                            \
  KERNEL(name, 30)

GEMV_KERNEL(gemv_col_n, CblasColMajor, CblasNoTrans, 3, 1)
GEMV_KERNEL(gemv_col_t, CblasColMajor, CblasTrans, 4, 2)
GEMV_KERNEL(gemv_row_n, CblasRowMajor, CblasNoTrans, 3, -2)
GEMV_KERNEL(gemv_row_t, CblasRowMajor, CblasTrans, 4, 1)

/* C = alpha op(A) op(B) + beta C, C 3 x 2 (ldc 4), k = 4: op(A) 3 x 4,
 * op(B) 4 x 2, every matrix inside lda/ldb 5 (A p[0:20], B p[20:40]);
 * C's earlier contents p[40:48], alpha p[48], beta p[49]. */
#define GEMM_KERNEL(name, ORDER, TA, TB)                                       \
  __attribute__((noinline)) double name(double *p) {                           \
    double C[12];                                                              \
    for (int i = 0; i < 12; i++)                                               \
      C[i] = p[40 + i % 8] * (1 + 0.1 * i);                                    \
    cblas_dgemm(ORDER, TA, TB, 3, 2, 4, p[48], p, 5, p + 20, 5, p[49], C, 4);  \
    return sumsq(C, 12, 1);                                                    \
  }                                                                            \
  KERNEL(name, 50)

GEMM_KERNEL(gemm_col_nn, CblasColMajor, CblasNoTrans, CblasNoTrans)
GEMM_KERNEL(gemm_col_tn, CblasColMajor, CblasTrans, CblasNoTrans)
GEMM_KERNEL(gemm_row_nt, CblasRowMajor, CblasNoTrans, CblasTrans)
GEMM_KERNEL(gemm_row_tt, CblasRowMajor, CblasTrans, CblasTrans)

/* Symmetric and packed, only alpha and beta (and x, y) active. */
static const double S[16] = {1.5, 0.3, -0.2, 0.7, 9, 1.1, 0.4, -0.6,
                             9,   9,   0.9,  0.2, 9, 9,   9,   1.3};
static const double SP[10] = {1.5, 0.3, -0.2, 0.7, 1.1, 0.4, -0.6, 0.9, 0.2,
                              1.3};
__attribute__((noinline)) double f_symv(double *p) {
  double y[4], z[4];
  for (int i = 0; i < 4; i++)
    y[i] = z[i] = p[4 + i] * p[4 + i];
  cblas_dsymv(CblasColMajor, CblasLower, 4, p[8], S, 4, p, 1, p[9], y, 1);
  cblas_dspmv(CblasRowMajor, CblasUpper, 4, p[9], SP, p, 1, p[8], z, -1);
  return sumsq(y, 4, 1) + sumsq(z, 4, 1);
}
KERNEL(f_symv, 10)

/* Fortran: alpha and beta in locals holding active values. */
__attribute__((noinline)) double f_fortran(double *p) {
  double y[3], C[9], alpha = p[24] * 2, beta = p[25];
  int m = 3, n = 3, k = 3, lda = 4, one = 1, three = 3;
  for (int i = 0; i < 3; i++)
    y[i] = p[26 + i];
  for (int i = 0; i < 9; i++)
    C[i] = p[12 + i];
  dgemv_("T", &m, &n, &alpha, p, &lda, p + 21, &one, &beta, y, &one);
  dgemm_("N", "T", &m, &n, &k, &beta, p, &lda, p + 1, &lda, &alpha, C, &three);
  dsymv_("U", &n, &alpha, p, &lda, y, &one, &beta, C + 3, &one);
  return sumsq(y, 3, 1) + sumsq(C, 9, 1);
}
KERNEL(f_fortran, 29)

/* Single precision: C = a A B + b C (2 x 2, k = 2), loss sum C^2:
 * d/da = 2 <C, A B>, d/db = 2 <C, C0>. */
__attribute__((noinline)) float s_loss(float *s, const float *A,
                                       const float *B, const float *C0) {
  float C[4];
  memcpy(C, C0, sizeof C);
  cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, s[0], A, 2,
              B, 2, s[1], C, 2);
  return C[0] * C[0] + C[1] * C[1] + C[2] * C[2] + C[3] * C[3];
}
static void s_check(void) {
  float s[2] = {0.7f, -1.3f}, ds[2] = {0};
  float A[4] = {1, 2, -1, 0.5f}, B[4] = {0.3f, -0.2f, 1.1f, 0.4f},
        C0[4] = {0.5f, -1, 2, 0.25f};
  __enzyme_autodiff((void *)s_loss, enzyme_dup, s, ds, enzyme_const, A,
                    enzyme_const, B, enzyme_const, C0);
  double ab[4], c[4], da = 0, db = 0;
  for (int j = 0; j < 2; j++)
    for (int i = 0; i < 2; i++) {
      ab[i + 2 * j] = A[i] * B[2 * j] + A[i + 2] * B[1 + 2 * j];
      c[i + 2 * j] = s[0] * ab[i + 2 * j] + s[1] * C0[i + 2 * j];
    }
  for (int i = 0; i < 4; i++) {
    da += 2 * c[i] * ab[i];
    db += 2 * c[i] * C0[i];
  }
  check_close("s_loss: d/dalpha", ds[0], da, 1e-5);
  check_close("s_loss: d/dbeta", ds[1], db, 1e-5);
}

int main(void) {
  gemv_col_n_check(1);
  gemv_col_t_check(2);
  gemv_row_n_check(3);
  gemv_row_t_check(4);
  gemm_col_nn_check(5);
  gemm_col_tn_check(6);
  gemm_row_nt_check(7);
  gemm_row_tt_check(8);
  f_symv_check(9);
  f_fortran_check(10);
  s_check();
  return check_report();
}
