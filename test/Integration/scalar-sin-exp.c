// The foundation issue's example: sin(x*y) + exp(x)/y in reverse and forward
// mode at every optimisation level, against the analytic gradient.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_out, enzyme_dup, enzyme_const, enzyme_primal_return;
typedef struct {
  double dx, dy;
} G2;
typedef struct {
  double f, dx;
} PrimalAndGrad;
G2 __enzyme_autodiff(void *, ...);
double __enzyme_autodiff_1(void *, ...);
PrimalAndGrad __enzyme_autodiff_p(void *, ...);
double __enzyme_fwddiff(void *, ...);

double f(double x, double y) { return sin(x * y) + exp(x) / y; }

int main(void) {
  double x = 0.7, y = 1.3;
  double dx = y * cos(x * y) + exp(x) / y;
  double dy = x * cos(x * y) - exp(x) / (y * y);

  G2 g = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_out, y);
  check_close("reverse df/dx", g.dx, dx, 1e-12);
  check_close("reverse df/dy", g.dy, dy, 1e-12);

  /* Unmarked doubles are active in reverse mode. */
  G2 u = __enzyme_autodiff((void *)f, x, y);
  check_close("default activity df/dx", u.dx, dx, 1e-12);
  check_close("default activity df/dy", u.dy, dy, 1e-12);

  check_close("const y: df/dx",
              __enzyme_autodiff_1((void *)f, enzyme_out, x, enzyme_const, y),
              dx, 1e-12);

  PrimalAndGrad p = __enzyme_autodiff_p((void *)f, enzyme_primal_return,
                                        enzyme_out, x, enzyme_const, y);
  check_close("primal return: f", p.f, f(x, y), 1e-15);
  check_close("primal return: df/dx", p.dx, dx, 1e-12);

  check_close("forward d/dx",
              __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0, enzyme_dup, y,
                               0.0),
              dx, 1e-12);
  check_close("forward along (0.5, -2)",
              __enzyme_fwddiff((void *)f, enzyme_dup, x, 0.5, enzyme_dup, y,
                               -2.0),
              0.5 * dx - 2 * dy, 1e-12);
  check_close("forward, const y",
              __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0, enzyme_const, y),
              dx, 1e-12);
  return check_report();
}
