// C++: a const double * member set in a noinline constructor, a
// std::vector<const double *> filled in a noinline helper, a lambda capturing
// by reference passed to a noinline template.
// f(p) = 2 sum_i p_i t_i + t_0 p_1: df/dp_i = 2 t_i (+ t_0 for i = 1), t unchanged.
// RUN: %clangxx -O0 %s -o %t0 -lm && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 -lm && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 -lm && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 -lm && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <string.h>
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;
#define NI __attribute__((noinline))
#include <vector>
struct Res { const double *a; const double *b; NI Res(const double *x, const double *y) : a(x), b(y) {} };
NI void fill(std::vector<const double *> &v, const double *x, const double *y) { v.push_back(x); v.push_back(y); }
template <class F> NI double apply(F f) { return f(); }
double f(const double *p, const double *t) {
  Res r(p, t);
  std::vector<const double *> v; fill(v, p, t);
  double s = 0;
  for (int i = 0; i < 3; i++) s += r.a[i] * r.b[i] + v[0][i] * v[1][i];
  s += apply([&] { return r.b[0] * p[1]; });
  return s;
}
int main() {
  double p[3] = {0.5, -1, 2}, dp[3] = {0}, t[3] = {1, 2, 3}, t0[3] = {1, 2, 3};
  __enzyme_autodiff((void *)f, enzyme_dup, p, dp, enzyme_const, t);
  for (int i = 0; i < 3; i++) { check_close("t unchanged", t[i], t0[i], 0); check_close("df/dp", dp[i], 2 * t0[i] + (i == 1 ? t0[0] : 0), 1e-14); }
  return check_report();
}
