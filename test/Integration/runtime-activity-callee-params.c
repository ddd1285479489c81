// Constant pointers given to functions differentiated on their own (a
// recursive function, a noinline one): the callee's derivative is told
// which of its parameters may be constant, or point to memory holding
// constant pointers, and tests those at run time. (These programs were
// compile errors before run-time activity crossed calls.)
//  - rec: a struct {x, q} with q enzyme_const (or a global table) passed to
//    a recursive function: f = sum_i x_i q_i, df/dx_i = q_i;
//  - rows: a table {w, seq} with seq enzyme_const, each row passed to a
//    noinline dot product with w: g = |w|^2 + seq . w, dg/dw = 2 w + seq.
// The constant inputs stay unchanged.
// RUN: %clang -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

typedef struct {
  const double *x, *q;
} Ctx;

static double rec(const Ctx *c, int n) {
  return n == 0 ? 0.0 : c->x[n - 1] * c->q[n - 1] + rec(c, n - 1);
}
static const double TABLE[3] = {4, 5, 6};

double f_arg(const double *x, const double *q, int n) {
  Ctx c = {x, q};
  return rec(&c, n);
}

double f_global(const double *x, int n) {
  Ctx c = {x, TABLE};
  return rec(&c, n);
}

__attribute__((noinline)) static double dot(const double *a, const double *b,
                                            int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

double rows_dot(double *w, const double *seq, int n) {
  const double **rows = malloc(2 * sizeof *rows);
  rows[0] = w;
  rows[1] = seq;
  double s = 0;
  for (int i = 0; i < 2; i++)
    s += dot(rows[i], w, n);
  free(rows);
  return s;
}

int main(void) {
  double x[3] = {0.5, -1.5, 2.0}, dx[3] = {0, 0, 0};
  double q[3] = {0.25, -3.0, 1.5};
  const double q0[3] = {0.25, -3.0, 1.5};
  __enzyme_autodiff((void *)f_arg, enzyme_dup, x, dx, enzyme_const, q,
                    enzyme_const, 3);
  for (int i = 0; i < 3; i++) {
    check_close("rec df/dx (enzyme_const q)", dx[i], q0[i], 1e-15);
    check_close("q unchanged", q[i], q0[i], 0);
  }
  for (int i = 0; i < 3; i++)
    dx[i] = 0;
  __enzyme_autodiff((void *)f_global, enzyme_dup, x, dx, enzyme_const, 3);
  for (int i = 0; i < 3; i++) {
    check_close("rec df/dx (global table)", dx[i], TABLE[i], 1e-15);
  }
  double w[3] = {1.0, -2.0, 0.5}, dw[3] = {0, 0, 0};
  double seq[3] = {3.0, 0.25, -1.0};
  const double seq0[3] = {3.0, 0.25, -1.0};
  __enzyme_autodiff((void *)rows_dot, enzyme_dup, w, dw, enzyme_const, seq,
                    enzyme_const, 3);
  for (int i = 0; i < 3; i++) {
    check_close("rows dg/dw", dw[i], 2 * w[i] + seq0[i], 1e-15);
    check_close("seq unchanged", seq[i], seq0[i], 0);
  }
  return check_report();
}
