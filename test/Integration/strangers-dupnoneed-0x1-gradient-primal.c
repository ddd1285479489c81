// Enzyme's sparse-Hessian idiom passes the gradient's primal to forward
// mode over the gradient as enzyme_dupnoneed, (double *)0x1 (its Sparse
// tests, e.g. sqrtspring.cpp, do). The gradient function's primal reads
// that memory only to accumulate into it (the reverse sweep's g[i] += ...),
// and running those accesses crashed the program (SIGSEGV, no message, at
// every -O level; found by a stranger program). Memory an
// enzyme_dupnoneed argument points to that is read only to update itself
// through sums needs none of its primal values: forward mode drops those
// loads and stores, also in the callees it passes the memory to
// (UnneededPrimalWrites.h). A self-update that is not a sum (g[0] *= g[0],
// whose tangent uses the value) keeps them, so there a real scratch array
// is needed and the numbers stay right (the second case).
// Expected: the Hessian column of f = x0^2 x1 along e_0, (2 x1, 2 x0); for
// the second case the tangent of (df/dx0)^2 = (2 x0 x1)^2 along e_0,
// 2 (2 x0 x1) (2 x1).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

double f(const double *x) { return x[0] * x[0] * x[1]; }

void grad(const double *x, double *g) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
}

// The gradient, then its first component squared in place.
void grad_squared(const double *x, double *g) {
  g[0] = 0;
  g[1] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
  g[0] = g[0] * g[0];
}

int main(void) {
  double x[2] = {1.5, 2.0}, tx[2] = {1, 0}, tg[2] = {0, 0};
  __enzyme_fwddiff((void *)grad, enzyme_dup, x, tx, enzyme_dupnoneed,
                   (double *)0x1, tg);
  check_close("H[0][0]", tg[0], 2 * x[1], 1e-14);
  check_close("H[1][0]", tg[1], 2 * x[0], 1e-14);

  double scratch[2] = {0, 0}, ts[2] = {0, 0};
  __enzyme_fwddiff((void *)grad_squared, enzyme_dup, x, tx, enzyme_dupnoneed,
                   scratch, ts);
  check_close("d/dx0 (df/dx0)^2", ts[0], 2 * (2 * x[0] * x[1]) * (2 * x[1]),
              1e-13);
  check_close("d/dx0 df/dx1", ts[1], 2 * x[0], 1e-14);
  return check_report();
}
