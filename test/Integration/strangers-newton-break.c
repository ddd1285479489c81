// A numerical user's root finder: Newton's method on x^3 + p x - q in a
// while loop that leaves with `break` once the step is small, and the root
// differentiated with respect to p and q. By the implicit function
// theorem: dx/dp = -x / (3 x^2 + p), dx/dq = 1 / (3 x^2 + p).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

typedef struct {
  double dp, dq;
} G2;
extern int enzyme_out;
extern G2 __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

double cubic_root(double p, double q) {
  double x = 1.0;
  int it = 0;
  while (1) {
    double f = x * x * x + p * x - q;
    double df = 3 * x * x + p;
    double dx = f / df;
    x -= dx;
    if (fabs(dx) < 1e-14 || ++it > 100)
      break;
  }
  return x;
}

int main(void) {
  double p = 2.0, q = 5.0;
  G2 g = __enzyme_autodiff((void *)cubic_root, enzyme_out, p, enzyme_out, q);
  double x = cubic_root(p, q);
  double d = 3 * x * x + p;
  check_close("residual", x * x * x + p * x - q, 0.0, 1e-12);
  check_close("dx/dp", g.dp, -x / d, 1e-10);
  check_close("dx/dq", g.dq, 1 / d, 1e-10);
  double t = __enzyme_fwddiff((void *)cubic_root, p, 1.0, q, 0.0);
  check_close("fwd dx/dp", t, -x / d, 1e-10);
  return check_report();
}
