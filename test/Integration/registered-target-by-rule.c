// A request whose target is itself registered as like a math function
// (__enzyme_function_like) or as inactive (__enzyme_inactivefn): its body
// was differentiated as if it had no registration, a silent wrong number
// (a stand-in for log1p gave 2 where log1p's derivative is 1/3; an inactive
// function gave 3 where 0 is right) while a caller of the same function got
// the registered rule (review23). The target is now differentiated as a
// call, which carries its rule. Reverse and forward; expected derivatives
// are analytic.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>

extern int enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

// A table-driven log1p whose code is not differentiable as written: its
// registration says it is log1p.
double fastLog1p(double a) { return 2 * a; }
void *__enzyme_function_like[2] = {(void *)fastLog1p, "log1p"};

// A logger's rescaling, declared to carry no derivative.
double noisy(double a) { return 3 * a; }
void *__enzyme_inactivefn[1] = {(void *)noisy};

double viaCaller(double a) { return fastLog1p(a) + noisy(a); }

int main(void) {
  double a = 2.0;
  check_close("function_like through a caller",
              __enzyme_autodiff((void *)viaCaller, enzyme_out, a), 1 / (1 + a),
              1e-12);
  check_close("function_like as the target, reverse",
              __enzyme_autodiff((void *)fastLog1p, enzyme_out, a), 1 / (1 + a),
              1e-12);
  check_close("function_like as the target, forward",
              __enzyme_fwddiff((void *)fastLog1p, enzyme_dup, a, 1.5),
              1.5 / (1 + a), 1e-12);
  check_close("inactive as the target, reverse",
              __enzyme_autodiff((void *)noisy, enzyme_out, a), 0.0, 1e-12);
  check_close("inactive as the target, forward",
              __enzyme_fwddiff((void *)noisy, enzyme_dup, a, 1.0), 0.0, 1e-12);
  return check_report();
}
