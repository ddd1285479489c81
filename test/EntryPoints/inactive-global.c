// __enzyme_inactive_global: Enzyme's marking of a global as inactive. In
// Tapestry globals have no shadow anyway (their values are constants to the
// derivative), so the marking is accepted and the derivative is the one
// Enzyme computes: d/dx (scale * x^2) = 2 scale x, scale a mutable global.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double scale = 3.0;
void *__enzyme_inactive_global_scale = (void *)&scale;

__attribute__((noinline)) double f(double x) { return scale * x * x; }

int main(void) {
  for (double x = -1.0; x <= 1.0; x += 0.5) {
    scale = 1.0 + x * x;
    check_close("reverse", __enzyme_autodiff((void *)f, enzyme_out, x),
                2 * scale * x, 1e-14);
    check_close("forward", __enzyme_fwddiff((void *)f, x, 1.0), 2 * scale * x,
                1e-14);
  }
  return check_report();
}
