// A function the derivative calls (not inlined: noinline, or -O0) stores
// an enzyme_const pointer into a struct beside an active one; the caller
// then reads both through the struct. The struct's shadow holds the
// constant pointer itself (the marker of "no derivative here"), so the
// caller must test what it reads there at run time: accumulating the
// adjoint of d.b would write into the constant input t.
// f(p) = scale * sum_i (p_i - t_i)^2, scale = 2 * 0.5: df/dp_i = 2 (p_i - t_i).
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

struct Diff {
  const double *a;
  const double *b;
  double scale;
};

__attribute__((noinline)) void make(Diff *d, const double *a, const double *b,
                                    double s) {
  d->a = a;
  d->b = b;
  d->scale = s * 2.0;
}

double resid(const double *p, const double *t) {
  Diff d;
  make(&d, p, t, 0.5);
  double s = 0;
  for (int i = 0; i < 3; i++) {
    double r = d.a[i] - d.b[i];
    s += d.scale * r * r;
  }
  return s;
}

int main() {
  double p[3] = {0.5, -1, 2}, dp[3] = {0, 0, 0}, t[3] = {0, 0.1, 0.2};
  __enzyme_autodiff((void *)resid, enzyme_dup, p, dp, enzyme_const, t);
  double t0[3] = {0, 0.1, 0.2};
  for (int i = 0; i < 3; i++) {
    check_close("t unchanged", t[i], t0[i], 0);
    check_close("df/dp", dp[i], 2 * (p[i] - t0[i]), 1e-14);
  }
  return check_report();
}
