// A recursive helper (x^n by recursion on an enzyme_const n), checked
// against the analytic derivative in both modes.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_out, enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double opaque(double x) {
  volatile double v = x;
  return v;
}

static double rpow(double x, int n) {
  return n == 0 ? 1.0 : x * rpow(x, n - 1);
}
double use_rpow(double x, int n) { return rpow(x, n) + x; }

int main(void) {
  double x = opaque(0.7);
  for (int n = 0; n <= 4; n += 2) {
    double want = (n ? n * pow(x, n - 1) : 0.0) + 1.0;
    char what[64];
    snprintf(what, sizeof what, "recursive helper reverse n=%d", n);
    check_close(
        what,
        __enzyme_autodiff((void *)use_rpow, enzyme_out, x, enzyme_const, n),
        want, 1e-12);
    snprintf(what, sizeof what, "recursive helper forward n=%d", n);
    check_close(
        what,
        __enzyme_fwddiff((void *)use_rpow, enzyme_dup, x, 1.0, enzyme_const, n),
        want, 1e-12);
  }
  return check_report();
}
