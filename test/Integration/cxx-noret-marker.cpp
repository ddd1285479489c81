// enzyme_noret, as Enzyme's own C++ header passes it on every Reverse and
// default Forward request: it means "the primal result is not returned",
// and leaves the result active. Called through the C API templates that
// <enzyme/enzyme> declares. Expected values are analytic derivatives.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <enzyme/enzyme>

double cube(double x) { return x * x * x; }

int main() {
  double r = __enzyme_autodiff<double>((void *)cube, enzyme_active_return, enzyme_noret,
                                       enzyme_out, 2.0);
  check_close("reverse with enzyme_noret", r, 12.0, 1e-12);
  double t = __enzyme_fwddiff<double>((void *)cube, enzyme_dup_return, enzyme_noret,
                                      enzyme_dup, 2.0, 1.0);
  check_close("forward with enzyme_noret", t, 12.0, 1e-12);
  return check_report();
}
