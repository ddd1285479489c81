// __attribute__((enzyme_sparse_accumulate)) marks a function that adds its
// value into a sparse structure, for Enzyme's sparsity optimisation; it
// changes no derivative, and Tapestry, which does not do that optimisation,
// keeps such calls as they are (Passes/ToDense.h). Analytic derivative.
// RUN: %clang_fplugin -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang_enzyme -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);

__attribute__((enzyme_sparse_accumulate)) void acc(double *p, double v) {
  *p += v;
}

double f(double x) {
  double s = 0;
  acc(&s, x * x);
  acc(&s, sin(x));
  return s;
}

int main(void) {
  double x = 0.7;
  check_close("d/dx (x^2 + sin x)",
              __enzyme_autodiff((void *)f, enzyme_out, x), 2 * x + cos(x),
              1e-12);
  return check_report();
}
