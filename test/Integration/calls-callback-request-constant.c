// A function pointer that the request itself passes as a compile-time
// constant (enzyme_const, a static function) to the function being
// differentiated, which calls it with an active argument, in reverse and
// forward mode, against the analytic derivative.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef double (*fn)(double);
__attribute__((noinline)) double apply(fn f, double x) { return f(x) * x; }
static double sq(double x) { return x * x; }
static double sn(double x) { return sin(x); }

int main(void) {
  double x = 1.5;
  check_close("reverse, sq passed by the request",
              __enzyme_autodiff((void *)apply, enzyme_const, sq, enzyme_out,
                                x),
              3 * x * x, 1e-14);
  check_close("forward, sq passed by the request",
              __enzyme_fwddiff((void *)apply, enzyme_const, sq, enzyme_dup, x,
                               1.0),
              3 * x * x, 1e-14);
  check_close("reverse, sin passed by the request",
              __enzyme_autodiff((void *)apply, enzyme_const, sn, enzyme_out,
                                x),
              cos(x) * x + sin(x), 1e-14);
  return check_report();
}
