// A forward-mode user's program: a function writing a vector result
// (rotation of a point by an angle, then a softplus of each component)
// differentiated with __enzyme_fwddiff, the output buffer passed
// enzyme_dupnoneed (its primal value is not wanted, only its tangent) and
// the angle and point enzyme_dup. Analytic Jacobian-vector products.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const;
extern void __enzyme_fwddiff(void *, ...);

void rotate_softplus(double *out, const double *pt, double angle) {
  double c = cos(angle), s = sin(angle);
  double x = c * pt[0] - s * pt[1];
  double y = s * pt[0] + c * pt[1];
  out[0] = log1p(exp(x));
  out[1] = log1p(exp(y));
}

int main(void) {
  double out[2] = {0}, dout[2] = {0};
  double pt[2] = {0.8, -0.4}, dpt[2] = {0.3, 0.7};
  double angle = 0.6;
  __enzyme_fwddiff((void *)rotate_softplus, enzyme_dupnoneed, out, dout,
                   enzyme_dup, pt, dpt, enzyme_dup, angle, 0.5);
  double c = cos(angle), s = sin(angle);
  double x = c * pt[0] - s * pt[1], y = s * pt[0] + c * pt[1];
  double dx = c * dpt[0] - s * dpt[1] + 0.5 * (-s * pt[0] - c * pt[1]);
  double dy = s * dpt[0] + c * dpt[1] + 0.5 * (c * pt[0] - s * pt[1]);
  double sx = 1 / (1 + exp(-x)), sy = 1 / (1 + exp(-y));
  check_close("dout0", dout[0], sx * dx, 1e-13);
  check_close("dout1", dout[1], sy * dy, 1e-13);
  return check_report();
}
