// A recursive noinline callee passes its pointer parameters to itself in
// another order, so the enzyme_const t it was given as its third parameter
// is stored into d at depth 1. The per-function summary (PointerFlow) must
// reach a fixed point over the recursion: summarizing the recursive call as
// "stores nothing" left d unmarked, and the caller accumulated d.a's adjoint
// into t. f(p) = sum_i t_i p_i: df/dp_i = t_i, t unchanged.
// RUN: %clang -O0 %s -o %t0 -lm && %t0 | FileCheck %s
// RUN: %clang -O1 %s -o %t1 -lm && %t1 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 -lm && %t2 | FileCheck %s
// RUN: %clang -O3 %s -o %t3 -lm && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <string.h>
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;
#define NI __attribute__((noinline))
struct D { const double *a; };
NI void put(struct D *d, const double *x, const double *y, int n) {
  if (n == 0) { d->a = x; return; }
  put(d, y, x, n - 1);
}
double f(const double *p, const double *t, int n) {
  struct D d; put(&d, p, t, n);
  double s = 0; for (int i = 0; i < 3; i++) s += d.a[i] * p[i];
  return s;
}
int main() {
  double p[3] = {0.5, -1, 2}, dp[3] = {0}, t[3] = {1, 2, 3}, t0[3] = {1, 2, 3};
  __enzyme_autodiff((void *)f, enzyme_dup, p, dp, enzyme_const, t, 1);
  for (int i = 0; i < 3; i++) { check_close("t unchanged", t[i], t0[i], 0); check_close("df/dp", dp[i], t0[i], 1e-14); }
  return check_report();
}
