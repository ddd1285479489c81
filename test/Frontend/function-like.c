// __attribute__((enzyme_function_like("sin"))) on a hand-written sine: its
// derivative is the one of sin (cos), not the derivative of its body (a
// truncated series, 1 - x^2/2), as in Enzyme. The primal still calls it.
// RUN: %clang_fplugin -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang_fplugin -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang_fplugin -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang_fplugin -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang_enzyme -O0 %s -lm -o %t4 && %t4 | FileCheck %s
// RUN: %clang_enzyme -O3 %s -lm -o %t5 && %t5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

__attribute__((enzyme_function_like("sin"))) double my_sin(double x) {
  return x - x * x * x / 6;
}

double f(double x) { return 2 * my_sin(x); }

int main(void) {
  double xs[] = {-0.9, 0.7, 1.3};
  for (int i = 0; i < 3; i++) {
    double x = xs[i];
    check_close("reverse", __enzyme_autodiff((void *)f, enzyme_out, x),
                2 * cos(x), 1e-12);
    check_close("forward", __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0),
                2 * cos(x), 1e-12);
  }
  check_close("primal", f(0.7), 2 * (0.7 - 0.343 / 6), 1e-12);
  return check_report();
}
