// __attribute__((enzyme_inactive)) on a global: what the function stores
// there carries no derivative and the global gets no shadow; f'(x) = 6x and
// the global still receives the primal value.
// RUN: %clang_fplugin -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang_fplugin -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang_fplugin -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang_fplugin -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang_enzyme -O2 %s -lm -o %t4 && %t4 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
//
// Without the front end, clang drops the attribute (with a warning); the
// global then gets a shadow (Core/GlobalShadows.h), which nothing reads, and
// the derivatives are the same.
// RUN: %clang -O0 %s -lm -o %t5 2>&1 | FileCheck %s --check-prefix=NOPLUGIN
// RUN: %t5 | FileCheck %s
// NOPLUGIN: warning: unknown attribute 'enzyme_inactive' ignored
#include "../Integration/Inputs/check.h"

extern int enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double last_input __attribute__((enzyme_inactive));

double f(double x) {
  last_input = x;
  return 3 * x * x;
}

int main(void) {
  double x = 1.25;
  check_close("reverse", __enzyme_autodiff((void *)f, enzyme_out, x), 6 * x,
              1e-12);
  check_close("stored", last_input, x, 0);
  last_input = 0;
  check_close("forward", __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0),
              6 * x, 1e-12);
  check_close("stored", last_input, x, 0);
  return check_report();
}
