// The mixed second derivative of pow at an exponent of exactly 0 was 0 in
// every nesting of derivatives (forward over forward, forward over
// reverse, reverse over forward) instead of d/dy (y x^(y-1)) = 1/x at
// y = 0 (a silent wrong number, found by a stranger program, fixed). The
// partial d pow(x, y)/dx was emitted as selectIfZero(y, 0, y * pow(x, y -
// 1)): right as a value (it avoids 0 * inf at x = 0) but with derivative 0
// in y where y == 0. The guard is now only at x = y = 0 (the pow rule in
// plugin/Core/DerivativeRules.def). A power-law or Box-Cox model whose
// exponent starts at 0 got a wrong Hessian from it.
// Expected: the analytic mixed derivative x^(y-1) (1 + y ln x).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

double __enzyme_fwddiff(void *, ...);
typedef struct {
  double dx, dy;
} Grad2;
Grad2 __enzyme_autodiff(void *, ...);

double power(double x, double y) { return pow(x, y); }
double dpdx_rev(double x, double y) {
  return __enzyme_autodiff((void *)power, x, y).dx;
}
double dpdx_fwd(double x, double y) {
  return __enzyme_fwddiff((void *)power, x, 1.0, y, 0.0);
}

int main(void) {
  const double x = 1.7;
  for (int k = 0; k < 2; k++) {
    double y = k == 0 ? 0.0 : 0.5;
    double want = pow(x, y - 1) * (1 + y * log(x));
    char name[48];
    snprintf(name, sizeof name, "fwd over fwd at y = %g", y);
    check_close(name, __enzyme_fwddiff((void *)dpdx_fwd, x, 0.0, y, 1.0),
                want, 1e-14);
    snprintf(name, sizeof name, "fwd over rev at y = %g", y);
    check_close(name, __enzyme_fwddiff((void *)dpdx_rev, x, 0.0, y, 1.0),
                want, 1e-14);
    snprintf(name, sizeof name, "rev over fwd at y = %g", y);
    check_close(name, __enzyme_autodiff((void *)dpdx_fwd, x, y).dy, want,
                1e-14);
  }
  return check_report();
}
