// A noinline identity returns the pointer it was given and the caller stores
// it into a struct read by another noinline callee.
// f(p) = sum_i p_i t_i: df/dp_i = t_i, t unchanged.
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
NI const double *id(const double *x) { return x; }
NI double use(struct D *d) { double s = 0; for (int i = 0; i < 3; i++) s += d->a[i] * d->b[i]; return s; }
double f(const double *p, const double *t) {
  struct D d; d.a = id(p); d.b = id(t);
  return use(&d);
}
int main() {
  double p[3] = {0.5, -1, 2}, dp[3] = {0}, t[3] = {1, 2, 3}, t0[3] = {1, 2, 3};
  __enzyme_autodiff((void *)f, enzyme_dup, p, dp, enzyme_const, t);
  for (int i = 0; i < 3; i++) { check_close("t unchanged", t[i], t0[i], 0); check_close("df/dp", dp[i], t0[i], 1e-14); }
  return check_report();
}
