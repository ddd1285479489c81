// __attribute__((enzyme_inactive)) on a function: calls to it contribute no
// derivative, as in Enzyme, whether the attribute is on the definition or
// only on a declaration before it. f(x) = x^2 + monitor(x) + noise(x) with
// both inactive has f'(x) = 2x (not 2x + 10 + 3cos x), in reverse and forward
// mode, with the front end loaded both ways Enzyme users and Tapestry's docs
// spell it.
// RUN: %clang_fplugin -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang_fplugin -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang_fplugin -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang_fplugin -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang_enzyme -O0 %s -lm -o %t4 && %t4 | FileCheck %s
// RUN: %clang_enzyme -O2 %s -lm -o %t5 && %t5 | FileCheck %s
// C23's spelling, [[enzyme::inactive]]:
// RUN: %clang_fplugin -std=c23 -O1 %s -lm -o %t6 && %t6 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#if __STDC_VERSION__ > 201710L
#define INACTIVE [[enzyme::inactive]]
#else
#define INACTIVE __attribute__((enzyme_inactive))
#endif

INACTIVE double monitor(double x) { return 10 * x; }

double noise(double x) __attribute__((enzyme_inactive));

double f(double x) { return x * x + monitor(x) + noise(x); }

double noise(double x) { return 3 * sin(x); }

int main(void) {
  double xs[] = {-1.5, 0.25, 2.0};
  for (int i = 0; i < 3; i++) {
    double x = xs[i];
    check_close("reverse", __enzyme_autodiff((void *)f, enzyme_out, x), 2 * x,
                1e-12);
    check_close("forward", __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0),
                2 * x, 1e-12);
  }
  // The primal is unchanged.
  check_close("primal", f(2.0), 4 + 20 + 3 * sin(2.0), 1e-12);
  return check_report();
}
