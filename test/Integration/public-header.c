// A program that includes Tapestry's public header instead of declaring the
// markers and entry points itself, in C and as C++.
// RUN: %clang -O0 %s -lm %tapestry_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm %tapestry_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O1 -x c++ %s %tapestry_rt -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <tapestry/tapestry.h>

double f(double x, double y) { return sin(x * y) + exp(x) / y; }

int main(void) {
  double x = 0.7, y = 1.3;
  check_close("reverse df/dx",
              __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_const, y),
              y * cos(x * y) + exp(x) / y, 1e-12);
  check_close("forward df/dy",
              __enzyme_fwddiff((void *)f, enzyme_dup, x, 0.0, enzyme_dup, y,
                               1.0),
              x * cos(x * y) - exp(x) / (y * y), 1e-12);
  check_close("runtime version", tapestry_version()[0] == '0', 1, 0);
  return check_report();
}
