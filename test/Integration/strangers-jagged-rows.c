// A C user's jagged matrix: a heap array of row pointers into one
// coefficient buffer (rows of different lengths), read as rows[i][j] in a
// loop the vectoriser turns into gathers of row pointers at -O3
// -march=native. Gradient of sum_i (sum_j rows[i][j] * v[j])^2 with respect
// to the coefficients and v. Analytic.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>

#define R 13
extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);

static int len(int i) { return 3 + i % 4; }

double jagged(double *coef, const double *v, int nrows, int col) {
  double **rows = (double **)malloc(nrows * sizeof(double *));
  int off = 0;
  for (int i = 0; i < nrows; ++i) {
    rows[i] = coef + off;
    off += len(i);
  }
  double s = 0;
  // Column `col` of every row (all rows have at least 3 entries).
  for (int i = 0; i < nrows; ++i)
    s += rows[i][col] * v[i];
  double t = 0;
  for (int i = 0; i < nrows; ++i)
    t += rows[i][0] * rows[i][1];
  free(rows);
  return s * s + t;
}

int main(void) {
  int total = 0;
  for (int i = 0; i < R; ++i)
    total += len(i);
  double *coef = malloc(total * sizeof(double));
  double *dcoef = calloc(total, sizeof(double));
  double v[R], dv[R] = {0};
  for (int k = 0; k < total; ++k)
    coef[k] = sin(0.37 * k);
  for (int i = 0; i < R; ++i)
    v[i] = 0.1 * i - 0.5;
  int col = 2;
  __enzyme_autodiff((void *)jagged, enzyme_dup, coef, dcoef, enzyme_dup, v,
                    dv, enzyme_const, R, enzyme_const, col);
  double s = 0;
  int off = 0;
  for (int i = 0; i < R; ++i) {
    s += coef[off + col] * v[i];
    off += len(i);
  }
  double *want = calloc(total, sizeof(double));
  off = 0;
  for (int i = 0; i < R; ++i) {
    want[off + col] += 2 * s * v[i];
    want[off] += coef[off + 1];
    want[off + 1] += coef[off];
    check_close("dv", dv[i], 2 * s * coef[off + col], 1e-13);
    off += len(i);
  }
  for (int k = 0; k < total; ++k)
    check_close("dcoef", dcoef[k], want[k], 1e-13);
  return check_report();
}
