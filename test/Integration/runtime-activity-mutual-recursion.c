// Mutually recursive noinline callees: putA is summarized first (the caller
// calls it first), and putB, summarized while putA was unfinished, must not
// keep a partial summary: putB(d, p, t, 0) stores t into d.a through putA.
// f(p) = sum_i t_i p_i after the second call: df/dp_i = t_i, t unchanged.
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
struct D { const double *a; const double *b; };
NI void putB(struct D *d, const double *x, const double *y, int n);
NI void putA(struct D *d, const double *x, const double *y, int n) {
  if (n == 0) { d->a = x; d->b = x; return; }
  putB(d, x, y, n - 1);
}
NI void putB(struct D *d, const double *x, const double *y, int n) { putA(d, y, x, n); }
double f(const double *p, const double *t) {
  struct D d; putA(&d, p, p, 0); putB(&d, p, t, 0);
  double s = 0; for (int i = 0; i < 3; i++) s += d.a[i] * p[i];
  return s;
}
int main() {
  double p[3] = {0.5, -1, 2}, dp[3] = {0}, t[3] = {1, 2, 3}, t0[3] = {1, 2, 3};
  __enzyme_autodiff((void *)f, enzyme_dup, p, dp, enzyme_const, t);
  for (int i = 0; i < 3; i++) { check_close("t unchanged", t[i], t0[i], 0); check_close("df/dp", dp[i], t0[i], 1e-14); }
  return check_report();
}
