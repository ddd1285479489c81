// CBLAS double-precision routines differentiated by name (their derivatives
// call BLAS again): ddot, daxpy, dscal, dcopy, dnrm2, dgemv, dgemm, with
// row- and column-major order, transposes, leading dimensions larger than
// the matrix, negative increments, active alpha (level 1), and inputs
// overwritten after the call (the reverse sweep must use cached copies).
// Reverse mode is checked against central finite differences, forward
// against reverse, at -O0..-O3, linked with Debian's OpenBLAS.
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

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#include "../Integration/Inputs/gradcheck.h"

/* Every kernel takes its active data packed in one array p (overwritten
 * freely) and returns a scalar loss. */
#include "Inputs/kernel-check.h"

/* dot with strides 2 and -1: sum_i x[2i] * y[4-1-i] */
__attribute__((noinline)) double k_dot(double *p) {
  double *x = p, *y = p + 8;
  return cblas_ddot(4, x, 2, y, -1) * p[0];
}
KERNEL(k_dot, 12)

/* y += a x with a active, then x overwritten; loss |y|^2 */
__attribute__((noinline)) double k_axpy(double *p) {
  double *x = p, *y = p + 5, a = p[10] * p[10];
  cblas_daxpy(5, a, x, 1, y, 1);
  x[0] = 7.0; /* the reverse needs x as it was */
  cblas_dscal(5, 3.0, x, 1);
  return cblas_ddot(5, y, 1, y, 1) + cblas_ddot(5, x, 1, y, 1);
}
KERNEL(k_axpy, 11)

/* x = a x with a active; scal with a negative increment does nothing
 * (reference BLAS and OpenBLAS) */
__attribute__((noinline)) double k_scal(double *p) {
  double *x = p, a = sin(p[6]);
  cblas_dscal(3, a, x, 2);
  cblas_dscal(3, a * 2, x, -2);
  return x[0] * x[0] + x[2] * x[4] + x[1];
}
KERNEL(k_scal, 7)

/* copy into a local array, then overwrite the source */
__attribute__((noinline)) double k_copy(double *p) {
  double y[8] = {0};
  cblas_dcopy(4, p, 1, y, 2);
  p[0] = 100.0;
  cblas_dcopy(2, p, 1, p + 2, 1); /* overwrites p[2], p[3] */
  return y[0] * y[2] + y[4] * y[6] + y[6] * p[3] + p[2];
}
KERNEL(k_copy, 4)

/* nrm2 of a strided vector */
__attribute__((noinline)) double k_nrm2(double *p) {
  double r = cblas_dnrm2(3, p, 2);
  return r * r * r + cblas_dnrm2(6, p, 1);
}
KERNEL(k_nrm2, 6)

/* y = 1.5 A x + 0.5 y, A 3 x 4 row-major with lda 5; then x^T A^T with
 * column-major and a transpose; A and x overwritten afterwards. */
__attribute__((noinline)) double k_gemv(double *p) {
  double *A = p, *x = p + 15, *y = p + 19, z[4];
  cblas_dgemv(CblasRowMajor, CblasNoTrans, 3, 4, 1.5, A, 5, x, 1, 0.5, y, 1);
  /* A read column-major as 5 x 3 (lda 5), transposed: z = A^T y (len 3 ->
   * reads the first 3 rows as columns) */
  cblas_dgemv(CblasColMajor, CblasTrans, 3, 3, 1.0, A, 5, y, 1, 0.0, z, -1);
  A[0] = A[1] = 0.0;
  x[0] = 3.0;
  cblas_dgemv(CblasRowMajor, CblasTrans, 4, 3, -1.0, A, 5, y, 1, 1.0, x, 2);
  return cblas_ddot(3, z, 1, z, 1) + cblas_ddot(2, x, 2, x, 2) + y[2];
}
KERNEL(k_gemv, 22)

/* C = alpha op(A) op(B) + beta C for every transpose pair, in both orders,
 * A and B 3 x 3 inside blocks with leading dimension 4. */
__attribute__((noinline)) double k_gemm(double *p) {
  double *A = p, *B = p + 12, C[16], s = 0;
  for (int order = 0; order < 2; order++)
    for (int ta = 0; ta < 2; ta++)
      for (int tb = 0; tb < 2; tb++) {
        for (int i = 0; i < 16; i++)
          C[i] = 0.1 * i;
        /* m = 3, n = 2, k = 3 */
        cblas_dgemm(order ? CblasColMajor : CblasRowMajor,
                    ta ? CblasTrans : CblasNoTrans,
                    tb ? CblasTrans : CblasNoTrans, 3, 2, 3, 0.75, A, 4, B, 4,
                    -0.5, C, 4);
        for (int i = 0; i < 12; i++)
          s += C[i] * C[i] * (1 + order + 2 * ta + 4 * tb);
      }
  B[0] = 0; /* overwritten after the calls */
  return s;
}
KERNEL(k_gemm, 24)

/* Symmetric, packed and triangular routines with a constant matrix: y =
 * S x (upper, row-major, lda 4), z = P y (packed lower), then z = U z and
 * z = L^-1 z in place (triangular, transposed or not, unit diagonal or not),
 * the input overwritten afterwards. */
static const double S[16] = {2.0, 0.5, -0.3, 9, 0, 1.5, 0.2, 9,
                             0,   0,   1.2,  9, 9, 9,   9,   9};
static const double P[6] = {1.1, 0.3, -0.4, 0.9, 0.25, 1.3};
static const double T[9] = {1.5, 0.2, -0.1, 0.4, 1.1, 0.3, -0.2, 0.6, 0.9};
__attribute__((noinline)) double k_symtri(double *p) {
  double y[3] = {0.1, 0.2, 0.3}, z[6] = {0};
  cblas_dsymv(CblasRowMajor, CblasUpper, 3, 1.5, S, 4, p, 1, 0.5, y, 1);
  cblas_dspmv(CblasColMajor, CblasLower, 3, 0.75, P, y, 1, 0.0, z, 2);
  cblas_dtrmv(CblasRowMajor, CblasUpper, CblasTrans, CblasNonUnit, 3, T, 3, z,
              2);
  cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasUnit, 3, T, 3, z,
              2);
  cblas_dtrsv(CblasRowMajor, CblasLower, CblasTrans, CblasNonUnit, 3, T, 3, y,
              -1);
  p[0] = 5;
  return cblas_ddot(3, z, 2, z, 2) + sin(y[0]) * y[2] + p[1] * y[1];
}
KERNEL(k_symtri, 3)

/* Power iteration steps: x <- A x / |A x|, x overwritten every time. */
__attribute__((noinline)) double k_loop(double *p) {
  double *A = p, x[3] = {1.0, 0.5, -0.25}, y[3];
  for (int it = 0; it < 4; it++) {
    cblas_dgemv(CblasColMajor, CblasNoTrans, 3, 3, 1.0, A, 3, x, 1, 0.0, y, 1);
    double r = cblas_dnrm2(3, y, 1);
    cblas_dcopy(3, y, 1, x, 1);
    cblas_dscal(3, 1.0 / r, x, 1);
  }
  return x[0] + 2 * x[1] * x[2];
}
KERNEL(k_loop, 9)

int main(void) {
  k_dot_check(1);
  k_axpy_check(2);
  k_scal_check(3);
  k_copy_check(4);
  k_nrm2_check(5);
  k_gemv_check(6);
  k_gemm_check(7);
  k_loop_check(8);
  k_symtri_check(9);
  /* Power iteration needs a matrix far from singular. */
  return check_report();
}
