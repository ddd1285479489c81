// Pointers pass through two levels of noinline calls into a struct the caller
// and a third callee read. f(p) = sum_i p_i t_i + t_0 p_0: df/dp_i = t_i
// (+ t_0 for i = 0), t unchanged.
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
NI void inner(struct D *d, const double *x, const double *y) { d->a = x; d->b = y; }
NI void outer(struct D *d, const double *x, const double *y) { inner(d, x, y); }
NI double use(const struct D *d) { double s = 0; for (int i = 0; i < 3; i++) s += d->a[i] * d->b[i]; return s; }
double f(const double *p, const double *t) {
  struct D d; outer(&d, p, t);
  return use(&d) + d.b[0] * p[0];
}
int main() {
  double p[3] = {0.5, -1, 2}, dp[3] = {0}, t[3] = {1, 2, 3}, t0[3] = {1, 2, 3};
  __enzyme_autodiff((void *)f, enzyme_dup, p, dp, enzyme_const, t);
  for (int i = 0; i < 3; i++) { check_close("t unchanged", t[i], t0[i], 0); check_close("df/dp", dp[i], t0[i] + (i == 0 ? t0[0] : 0), 1e-14); }
  return check_report();
}
