// The newer BLAS/LAPACK rules (active gemm alpha and beta, active
// triangular and symmetric matrices, dlacpy_) in split mode
// (__enzyme_augmentfwd then __enzyme_reverse, the inputs overwritten in
// between: what the reverse reads comes from the tape) and batch mode
// (enzyme_width 2, forward and reverse), each compared with the one-shot
// width-1 derivative, itself checked against central finite differences.
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

void dlacpy_(const char *uplo, const int *m, const int *n, const double *A,
             const int *lda, double *B, const int *ldb);

extern int enzyme_width, enzyme_dup, enzyme_dupnoneed, enzyme_const,
    enzyme_out;
typedef struct {
  double d[2];
} D2;
typedef struct {
  void *tape;
  double primal;
} aug_d;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
D2 __enzyme_fwddiff_2(void *, ...);
aug_d __enzyme_augmentfwd_d(void *, ...);
double __enzyme_reverse_d(void *, ...);

#include "../Integration/Inputs/gradcheck.h"

enum { N = 3, NA = 9 };

/* C = a A x0 x1^T-ish via gemm (alpha a, beta a / 2), then x solved with
 * A's lower triangle (diagonal shifted), y = S x with S from A's upper
 * triangle, A's lower part copied into B; A and x overwritten after. */
__attribute__((noinline)) void kern_v(double *A, double *x, double a,
                                      double *out) {
  double C[9], B[9], y[3];
  int n = N;
  for (int i = 0; i < 9; i++)
    C[i] = 0.1 * i - 0.3, B[i] = 0;
  for (int i = 0; i < 3; i++)
    A[4 * i] += 3;
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, 3, 3, 1, a, x, 3, x, 3,
              0.5 * a, C, 3);
  cblas_dtrsv(CblasRowMajor, CblasLower, CblasNoTrans, CblasNonUnit, 3, A, 3,
              x, 1);
  cblas_dsymv(CblasColMajor, CblasUpper, 3, 1.0, A, 3, x, 1, 0.0, y, 1);
  dlacpy_("L", &n, &n, A, &n, B, &n);
  for (int i = 0; i < 3; i++)
    out[i] = y[i] * C[4 * i] + B[i + 3 * (i > 0)] + C[i + 3] * x[i];
  A[0] = 1e30;
  x[1] = 1e30;
}
__attribute__((noinline)) double kern(double *A, double *x, double a) {
  double out[3];
  kern_v(A, x, a, out);
  return out[0] * out[1] + out[2] * out[2];
}

/* Finite-difference harness over p = (A, x, a). */
static double eval(const double *p) {
  double A[NA], x[N];
  memcpy(A, p, sizeof A), memcpy(x, p + NA, sizeof x);
  return kern(A, x, p[NA + N]);
}
static void grad(const double *p, double *g) {
  double A[NA], x[N];
  memcpy(A, p, sizeof A), memcpy(x, p + NA, sizeof x);
  g[NA + N] = __enzyme_autodiff((void *)kern, enzyme_dup, A, g, enzyme_dup, x,
                                g + NA, p[NA + N]);
}
static double tangent(const double *p, int j) {
  double A[NA], x[N], tA[NA] = {0}, tx[N] = {0};
  memcpy(A, p, sizeof A), memcpy(x, p + NA, sizeof x);
  if (j < NA)
    tA[j] = 1;
  else if (j < NA + N)
    tx[j - NA] = 1;
  return __enzyme_fwddiff((void *)kern, enzyme_dup, A, tA, enzyme_dup, x, tx,
                          p[NA + N], j == NA + N ? 1.0 : 0.0);
}

int main(void) {
  double p[NA + N + 1];
  fill(p, NA + N + 1, -1, 1, 5);
  compare("kern", NA + N + 1, p, eval, grad, tangent);
  double g[NA + N + 1] = {0};
  grad(p, g);
  const double *A0 = p, *x0 = p + NA, a = p[NA + N];
  double A[NA], x[N];

  /* Split mode: inputs overwritten between the halves. */
  {
    double sA[NA] = {0}, sx[N] = {0};
    memcpy(A, A0, sizeof A), memcpy(x, x0, sizeof x);
    aug_d r = __enzyme_augmentfwd_d((void *)kern, enzyme_dup, A, sA,
                                    enzyme_dup, x, sx, enzyme_out, a);
    memcpy(A, A0, sizeof A), memcpy(x, x0, sizeof x);
    check_close("split primal", r.primal, kern(A, x, a), 1e-12);
    for (int i = 0; i < NA; i++)
      A[i] = 1e30;
    for (int i = 0; i < N; i++)
      x[i] = 1e30;
    double sa = __enzyme_reverse_d((void *)kern, enzyme_dup, A, sA, enzyme_dup,
                                   x, sx, enzyme_out, a, 1.0, r.tape);
    check_close("split d/da", sa, g[NA + N], 1e-12);
    for (int i = 0; i < NA; i++)
      check_close(LABEL("split d/dA[%d]", i), sA[i], g[i], 1e-12);
    for (int i = 0; i < N; i++)
      check_close(LABEL("split d/dx[%d]", i), sx[i], g[NA + i], 1e-12);
  }

  /* Batch forward: lane 0 along A[3] and a, lane 1 along x[2]. */
  {
    double tA[2][NA] = {{0}}, tx[2][N] = {{0}};
    tA[0][3] = 1;
    tx[1][2] = 1;
    memcpy(A, A0, sizeof A), memcpy(x, x0, sizeof x);
    D2 t = __enzyme_fwddiff_2((void *)kern, enzyme_width, 2, enzyme_dup, A,
                              tA[0], tA[1], enzyme_dup, x, tx[0], tx[1], a,
                              1.0, 0.0);
    check_close("batch forward lane 0", t.d[0], g[3] + g[NA + N], 1e-10);
    check_close("batch forward lane 1", t.d[1], g[NA + 2], 1e-10);
  }

  /* Batch reverse of the void kernel, two seeds, against width 1. */
  {
    double out[N], seed[2][N], bA[2][NA] = {{0}}, bx[2][N] = {{0}}, dout[2][N];
    fill(seed[0], N, -1, 1, 3);
    fill(seed[1], N, -1, 1, 4);
    memcpy(dout, seed, sizeof dout);
    memcpy(A, A0, sizeof A), memcpy(x, x0, sizeof x);
    __enzyme_autodiff((void *)kern_v, enzyme_width, 2, enzyme_dup, A, bA[0],
                      bA[1], enzyme_dup, x, bx[0], bx[1], enzyme_const, a,
                      enzyme_dupnoneed, out, dout[0], dout[1]);
    for (int k = 0; k < 2; k++) {
      double rA[NA] = {0}, rx[N] = {0}, d1[N];
      memcpy(d1, seed[k], sizeof d1);
      memcpy(A, A0, sizeof A), memcpy(x, x0, sizeof x);
      __enzyme_autodiff((void *)kern_v, enzyme_dup, A, rA, enzyme_dup, x, rx,
                        enzyme_const, a, enzyme_dupnoneed, out, d1);
      for (int i = 0; i < NA; i++)
        check_close(LABEL("batch reverse lane %d d/dA[%d]", k, i), bA[k][i],
                    rA[i], 1e-12);
      for (int i = 0; i < N; i++)
        check_close(LABEL("batch reverse lane %d d/dx[%d]", k, i), bx[k][i],
                    rx[i], 1e-12);
    }
  }
  return check_report();
}
