// A sparse-linear-algebra user's program: y = A x with A in compressed
// sparse row form (row pointers, column indices, values), the weighted
// loss sum_i w_i y_i^2 differentiated with respect to the values and x.
// Analytic: r_i = 2 w_i y_i, dval_k = r_row(k) x_col(k), dx = A^T r.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);

static void csr_matvec(int n, const int *rowptr, const int *col,
                       const double *val, const double *x, double *y) {
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; ++k)
      s += val[k] * x[col[k]];
    y[i] = s;
  }
}

double loss(int n, const int *rowptr, const int *col, const double *val,
            const double *x, const double *w) {
  double *y = (double *)malloc(n * sizeof(double));
  csr_matvec(n, rowptr, col, val, x, y);
  double l = 0;
  for (int i = 0; i < n; ++i)
    l += w[i] * y[i] * y[i];
  free(y);
  return l;
}

#define N 9
int main(void) {
  int rowptr[N + 1], col[4 * N];
  double val[4 * N], dval[4 * N] = {0}, x[N], dx[N] = {0}, w[N];
  int nnz = 0;
  for (int i = 0; i < N; ++i) {
    rowptr[i] = nnz;
    // A varying pattern: a diagonal, a neighbour, and a far column.
    int cols[3] = {i, (i + 1) % N, (i * 4 + 2) % N};
    int cnt = 1 + i % 3;
    for (int c = 0; c < cnt; ++c) {
      col[nnz] = cols[c];
      val[nnz] = 1.0 + 0.1 * nnz - 0.02 * nnz * nnz;
      ++nnz;
    }
    x[i] = 0.5 - 0.15 * i;
    w[i] = 1.0 + 0.25 * i;
  }
  rowptr[N] = nnz;
  __enzyme_autodiff((void *)loss, enzyme_const, N, enzyme_const, rowptr,
                    enzyme_const, col, enzyme_dup, val, dval, enzyme_dup, x,
                    dx, enzyme_const, w);
  double wantx[N] = {0};
  for (int i = 0; i < N; ++i) {
    double y = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; ++k)
      y += val[k] * x[col[k]];
    double r = 2 * w[i] * y;
    for (int k = rowptr[i]; k < rowptr[i + 1]; ++k) {
      check_close("dval", dval[k], r * x[col[k]], 1e-12);
      wantx[col[k]] += r * val[k];
    }
  }
  for (int i = 0; i < N; ++i)
    check_close("dx", dx[i], wantx[i], 1e-12);
  return check_report();
}
