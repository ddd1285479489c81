// Forward mode of runtime-activity-recursive-swap.c: the tangent of d.a[i],
// read where a recursive callee stored the constant t, is zero.
// f(p) = sum_i t_i p_i: df/dp_k = t_k.
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
  double p[3] = {0.5, -1, 2}, t[3] = {1, 2, 3};
  for (int k = 0; k < 3; k++) {
    double dp[3] = {0}; dp[k] = 1;
    double d = __enzyme_fwddiff((void *)f, enzyme_dup, p, dp, enzyme_const, t, 1);
    check_close("df/dp_k fwd", d, t[k], 1e-14);
  }
  return check_report();
}
