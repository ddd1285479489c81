// Fortran-style BLAS (ddot_, daxpy_, dscal_, dcopy_, dnrm2_, dgemv_, dgemm_:
// every argument by reference, column-major, scalars in locals) and single
// precision (cblas_s*, s*_), differentiated by calling BLAS again. Fortran
// alpha held in a local that receives an active value is active. Reverse
// mode against central finite differences, forward against reverse; single
// precision against the double-precision derivative of the same program.
// RUN: %clang -O0 %s -lopenblas -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lopenblas -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lopenblas -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lopenblas -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
#include <string.h>

/* As users declare them (the Fortran ABI, without hidden lengths). */
double ddot_(const int *n, const double *x, const int *incx, const double *y,
             const int *incy);
void daxpy_(const int *n, const double *a, const double *x, const int *incx,
            double *y, const int *incy);
void dscal_(const int *n, const double *a, double *x, const int *incx);
void dcopy_(const int *n, const double *x, const int *incx, double *y,
            const int *incy);
double dnrm2_(const int *n, const double *x, const int *incx);
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
void dtrsv_(const char *uplo, const char *trans, const char *diag,
            const int *n, const double *A, const int *lda, double *x,
            const int *incx);
float sdot_(const int *n, const float *x, const int *incx, const float *y,
            const int *incy);
void sgemv_(const char *trans, const int *m, const int *n, const float *alpha,
            const float *A, const int *lda, const float *x, const int *incx,
            const float *beta, float *y, const int *incy);
float cblas_snrm2(const int n, const float *x, const int incx);
void cblas_saxpy(const int n, const float a, const float *x, const int incx,
                 float *y, const int incy);

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#include "../Integration/Inputs/gradcheck.h"

#include "Inputs/kernel-check.h"

/* Level 1, Fortran style: y += a x (a active), x scaled, norms and dots. */
__attribute__((noinline)) double f_level1(double *p) {
  int n = 4, one = 1, two = 2;
  double a = p[8] * 0.5, c = 2.0, y[4];
  dcopy_(&n, p + 4, &one, y, &one);
  daxpy_(&n, &a, p, &one, y, &one);
  dscal_(&n, &c, p, &one);
  int half = 2;
  return ddot_(&n, y, &one, y, &one) + dnrm2_(&half, p, &two) * y[1];
}
KERNEL(f_level1, 9)

/* y = A x and z = A^T y, A 3 x 3 inside lda 4; C = A^T B. */
__attribute__((noinline)) double f_level23(double *p) {
  double *A = p, *B = p + 12, y[3], z[3], C[9];
  int m = 3, n = 3, k = 3, lda = 4, one = 1, three = 3;
  double alpha = 1.25, beta = 0.0;
  dgemv_("N", &m, &n, &alpha, A, &lda, p + 24, &one, &beta, y, &one);
  dgemv_("t", &m, &n, &alpha, A, &lda, y, &one, &beta, z, &one);
  dgemm_("T", "N", &m, &n, &k, &alpha, A, &lda, B, &lda, &beta, C, &three);
  p[24] = 0; /* x overwritten after the calls */
  A[5] = 1;
  return ddot_(&three, z, &one, z, &one) + ddot_(&n, C, &three, C + 4, &one);
}
KERNEL(f_level23, 27)

/* Symmetric and triangular with a constant matrix, Fortran style. */
static double Msym[9] = {1.5, 0.3, -0.2, 7, 1.1, 0.4, 7, 7, 0.9};
__attribute__((noinline)) double f_symtri(double *p) {
  int n = 3, one = 1;
  double alpha = 0.5, beta = 1.0, y[3] = {0.3, -0.1, 0.2};
  dsymv_("L", &n, &alpha, Msym, &n, p, &one, &beta, y, &one);
  dtrsv_("L", "T", "N", &n, Msym, &n, y, &one);
  p[1] = 0;
  return y[0] * y[1] + y[2] * y[2] * y[0];
}
KERNEL(f_symtri, 3)

/* The same loss in single and double precision. */
__attribute__((noinline)) float s_loss(float *A, float *x) {
  int m = 2, n = 3, one = 1;
  float alpha = 1.0f, beta = 0.0f, y[2];
  sgemv_("N", &m, &n, &alpha, A, &m, x, &one, &beta, y, &one);
  cblas_saxpy(2, 0.5f, x, 1, y, 1);
  return sdot_(&m, y, &one, y, &one) + cblas_snrm2(3, x, 1);
}
/* y = A x + 0.5 x[0:2], loss |y|^2 + |x|: d/dA[i + 2j] = 2 y_i x_j,
 * d/dx_j = 2 (A^T y)_j + (j < 2 ? y_j : 0) + x_j / |x|. */
static void s_check(void) {
  float A[6], x[3], dA[6] = {0}, dx[3] = {0};
  for (int i = 0; i < 6; i++)
    A[i] = 0.3f * i - 0.7f;
  for (int j = 0; j < 3; j++)
    x[j] = 0.9f - 0.4f * j;
  __enzyme_autodiff((void *)s_loss, enzyme_dup, A, dA, enzyme_dup, x, dx);
  double y[2], nx = 0;
  for (int i = 0; i < 2; i++)
    y[i] = 0.5 * x[i];
  for (int j = 0; j < 3; j++) {
    nx += (double)x[j] * x[j];
    for (int i = 0; i < 2; i++)
      y[i] += (double)A[i + 2 * j] * x[j];
  }
  nx = sqrt(nx);
  for (int j = 0; j < 3; j++) {
    double want = x[j] / nx + (j < 2 ? y[j] : 0);
    for (int i = 0; i < 2; i++) {
      want += 2 * A[i + 2 * j] * y[i];
      check_close(LABEL("s_loss: d/dA[%d]", i + 2 * j), dA[i + 2 * j],
                  2 * y[i] * x[j], 1e-5);
    }
    check_close(LABEL("s_loss: d/dx[%d]", j), dx[j], want, 1e-5);
  }
}

int main(void) {
  f_level1_check(1);
  f_level23_check(2);
  f_symtri_check(3);
  s_check();
  return check_report();
}
