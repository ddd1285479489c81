// A captureless lambda converted to a function pointer and passed to the C
// entry points: `(void *)+[](double a) {...}` and through a local function
// pointer. The conversion operator returns the lambda's static invoker,
// which is the function differentiated. Expected values are analytic.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -g -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

#include <cmath>

extern "C" {
extern int enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

int main() {
  const double a = 0.9;
  double d = __enzyme_autodiff((void *)+[](double x) { return std::sin(x) * x; }, enzyme_out, a);
  check_close("+lambda, reverse", d, std::cos(a) * a + std::sin(a), 1e-12);
  double (*fp)(double, double) = [](double x, double y) { return x * std::exp(x * y); };
  double dy = __enzyme_fwddiff((void *)fp, enzyme_dup, a, 0.0, enzyme_dup, 0.5, 1.0);
  check_close("lambda through a function pointer, forward", dy, a * a * std::exp(a * 0.5),
              1e-12);
  return check_report();
}
