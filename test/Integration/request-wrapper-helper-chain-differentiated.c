// Forward over reverse through two generic helpers that are only ever
// differentiated, never called directly: __enzyme_fwddiff((void *)outer,
// enzyme_const, f1, ...) with outer(f) calling grad(f) and grad(f)
// requesting f. The copy of outer for f1 inlines grad's call; the
// original outer and then grad are left unused and removed, in that order.
// (Found at the end of session 44: grad, still used when its turn came,
// was kept, and its own request on the parameter was refused.) Expected
// values are analytic: f1(x) = x0^2 x1 + sin x1 has Hessian
// [[2 x1, 2 x0], [2 x0, -sin x1]].
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

typedef double (*Objective)(const double *);

static double f1(const double *x) { return x[0] * x[0] * x[1] + sin(x[1]); }

static void grad(Objective f, const double *x, double *g) {
  g[0] = g[1] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
}

static void outer(Objective f, const double *x, double *g) { grad(f, x, g); }

int main(void) {
  double x[2] = {0.5, 1.2}, v[2] = {0.3, -0.7}, g[2], Hv[2] = {0, 0};
  __enzyme_fwddiff((void *)outer, enzyme_const, f1, enzyme_dup, x, v,
                   enzyme_dup, g, Hv);
  check_close("(H v)[0]", Hv[0], 2 * x[1] * v[0] + 2 * x[0] * v[1], 1e-12);
  check_close("(H v)[1]", Hv[1], 2 * x[0] * v[0] - sin(x[1]) * v[1], 1e-12);
  check_close("gradient[0]", g[0], 2 * x[0] * x[1], 1e-12);
  check_close("gradient[1]", g[1], x[0] * x[0] + cos(x[1]), 1e-12);
  return check_report();
}
