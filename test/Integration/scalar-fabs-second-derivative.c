// fabs at zero takes the one-sided derivative on the side of the zero's
// sign (Enzyme's convention), so derivatives of derivatives through fabs
// stay right: fabs(-x*x) = x*x has second derivative 2 everywhere, 0 included
// (with fabs'(0) = 0 it would come out 0 at x = 0). Forward over forward,
// forward over reverse, reverse over forward and reverse over reverse.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double negsq_abs(double x) { return fabs(-x * x); }
double fwd1(double x) { return __enzyme_fwddiff((void *)negsq_abs, x, 1.0); }
double rev1(double x) { return __enzyme_autodiff((void *)negsq_abs, x); }

int main(void) {
  const double xs[] = {0.0, -0.0, 1.5, -1.5, 1e-3};
  for (unsigned i = 0; i < sizeof xs / sizeof *xs; ++i) {
    double x = xs[i];
    check_close("d fabs(-x^2) forward", fwd1(x), 2 * x, 1e-12);
    check_close("d fabs(-x^2) reverse", rev1(x), 2 * x, 1e-12);
    check_close("d2 forward over forward",
                __enzyme_fwddiff((void *)fwd1, x, 1.0), 2.0, 1e-12);
    check_close("d2 forward over reverse",
                __enzyme_fwddiff((void *)rev1, x, 1.0), 2.0, 1e-12);
    check_close("d2 reverse over forward", __enzyme_autodiff((void *)fwd1, x),
                2.0, 1e-12);
    check_close("d2 reverse over reverse", __enzyme_autodiff((void *)rev1, x),
                2.0, 1e-12);
  }
  return check_report();
}
