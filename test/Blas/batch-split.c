// BLAS derivatives in batch mode (enzyme_width 2, forward and reverse: each
// lane's shadows get their own BLAS calls) and split mode
// (__enzyme_augmentfwd then __enzyme_reverse, the inputs overwritten in
// between: the arrays the reverse reads come from the tape's copies), each
// lane and each half compared with the one-shot width-1 derivative, which
// test/Blas/cblas-double.c checks against finite differences.
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

enum { M = 3, N = 4 };

/* y = A x (A row-major 3 x 4), y += a x[0:3], loss y.y, then x and A
 * overwritten after their last use. */
__attribute__((noinline)) double kern(double *A, double *x, double a, int m,
                                      int n) {
  double y[3];
  cblas_dgemv(CblasRowMajor, CblasNoTrans, m, n, 1.0, A, n, x, 1, 0.0, y, 1);
  cblas_daxpy(m, a, x, 1, y, 1);
  double r = cblas_ddot(m, y, 1, y, 1);
  x[0] = 0;
  A[0] = 0;
  return r;
}

/* void version: out = A^T w (w = x[0:3] scaled), for batch reverse. */
__attribute__((noinline)) void kern_v(double *A, double *x, double *out,
                                      int m, int n) {
  double w[3];
  cblas_dcopy(m, x, 1, w, 1);
  cblas_dscal(m, 2.0, w, 1);
  cblas_dgemv(CblasRowMajor, CblasTrans, m, n, 1.0, A, n, w, 1, 0.0, out, 1);
}

int main(void) {
  double A0[M * N], x0[N], a = 0.7;
  fill(A0, M * N, -1, 1, 1);
  fill(x0, N, -1, 1, 2);

  /* One-shot reference gradient. */
  double A[M * N], x[N], gA[M * N] = {0}, gx[N] = {0};
  memcpy(A, A0, sizeof A), memcpy(x, x0, sizeof x);
  double ga = __enzyme_autodiff((void *)kern, enzyme_dup, A, gA, enzyme_dup,
                                x, gx, a, enzyme_const, M, enzyme_const, N);

  /* Split mode: inputs overwritten between the halves. */
  {
    double sA[M * N] = {0}, sx[N] = {0};
    memcpy(A, A0, sizeof A), memcpy(x, x0, sizeof x);
    aug_d r = __enzyme_augmentfwd_d((void *)kern, enzyme_dup, A, sA,
                                    enzyme_dup, x, sx, enzyme_out, a,
                                    enzyme_const, M, enzyme_const, N);
    memcpy(A, A0, sizeof A), memcpy(x, x0, sizeof x);
    check_close("split primal", r.primal, kern(A, x, a, M, N), 1e-12);
    for (int i = 0; i < M * N; i++)
      A[i] = 1e30;
    for (int i = 0; i < N; i++)
      x[i] = 1e30;
    double sa = __enzyme_reverse_d((void *)kern, enzyme_dup, A, sA, enzyme_dup,
                                   x, sx, enzyme_out, a, enzyme_const, M,
                                   enzyme_const, N, 1.0, r.tape);
    check_close("split d/da", sa, ga, 1e-12);
    for (int i = 0; i < M * N; i++)
      check_close(LABEL("split d/dA[%d]", i), sA[i], gA[i], 1e-12);
    for (int i = 0; i < N; i++)
      check_close(LABEL("split d/dx[%d]", i), sx[i], gx[i], 1e-12);
  }

  /* Batch forward: lane 0 along A[1], lane 1 along x[2]; compare with the
   * gradient. */
  {
    double tA[2][M * N] = {{0}}, tx[2][N] = {{0}};
    tA[0][1] = 1;
    tx[1][2] = 1;
    memcpy(A, A0, sizeof A), memcpy(x, x0, sizeof x);
    D2 t = __enzyme_fwddiff_2((void *)kern, enzyme_width, 2, enzyme_dup, A,
                              tA[0], tA[1], enzyme_dup, x, tx[0], tx[1], a,
                              0.0, 0.0, enzyme_const, M, enzyme_const, N);
    check_close("batch forward lane 0", t.d[0], gA[1], 1e-12);
    check_close("batch forward lane 1", t.d[1], gx[2], 1e-12);
    memcpy(A, A0, sizeof A), memcpy(x, x0, sizeof x);
    D2 ta = __enzyme_fwddiff_2((void *)kern, enzyme_width, 2, enzyme_dup, A,
                               tA[0], tA[0], enzyme_dup, x, tx[0], tx[0], a,
                               1.0, 2.0, enzyme_const, M, enzyme_const, N);
    check_close("batch forward d/da lane 0", ta.d[0], gA[1] + ga, 1e-12);
    check_close("batch forward d/da lane 1", ta.d[1], gA[1] + 2 * ga, 1e-12);
  }

  /* Batch reverse of the void kernel, two seeds, against width 1. */
  {
    double out[N], seed[2][N], bA[2][M * N] = {{0}}, bx[2][N] = {{0}};
    fill(seed[0], N, -1, 1, 3);
    fill(seed[1], N, -1, 1, 4);
    double dout[2][N];
    memcpy(dout, seed, sizeof dout);
    __enzyme_autodiff((void *)kern_v, enzyme_width, 2, enzyme_dup, A0, bA[0],
                      bA[1], enzyme_dup, x0, bx[0], bx[1], enzyme_dupnoneed,
                      out, dout[0], dout[1], enzyme_const, M, enzyme_const, N);
    for (int k = 0; k < 2; k++) {
      double rA[M * N] = {0}, rx[N] = {0}, d1[N];
      memcpy(d1, seed[k], sizeof d1);
      __enzyme_autodiff((void *)kern_v, enzyme_dup, A0, rA, enzyme_dup, x0, rx,
                        enzyme_dupnoneed, out, d1, enzyme_const, M,
                        enzyme_const, N);
      for (int i = 0; i < M * N; i++)
        check_close(LABEL("batch reverse lane %d d/dA[%d]", k, i), bA[k][i],
                    rA[i], 1e-12);
      for (int i = 0; i < N; i++)
        check_close(LABEL("batch reverse lane %d d/dx[%d]", k, i), bx[k][i],
                    rx[i], 1e-12);
      /* analytic: d/dx_j = 2 (A d)_j for j < M, d/dA_ij = 2 x_i d_j */
      for (int i = 0; i < M; i++) {
        double s = 0;
        for (int j = 0; j < N; j++)
          s += A0[i * N + j] * seed[k][j];
        check_close(LABEL("analytic lane %d d/dx[%d]", k, i), bx[k][i], 2 * s,
                    1e-12);
      }
    }
  }
  return check_report();
}
