// Requests that differ only in the function they name, in the branches of
// an if or a switch: optimised IR merges them into one request whose
// function is a phi (simplifycfg sinks the common call), which the opt flow
// refused as "a function pointer whose value is known only at run time".
// Such a request is split again, one per function, chosen by the pointer
// as the program would. A ternary naming the function directly is the
// same request. Expected: f = x^3 -> 3x^2, g = sin x -> cos x,
// h = x e^x -> (1 + x) e^x.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %plain_cc -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cc -O2 %t.bc -lm -o %to && %to | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double f(double x) { return x * x * x; }
double g(double x) { return sin(x); }
double h(double x) { return x * exp(x); }

__attribute__((noinline)) double gradientOf(int which, double x) {
  double d;
  if (which == 0)
    d = __enzyme_autodiff((void *)f, enzyme_out, x);
  else if (which == 1)
    d = __enzyme_autodiff((void *)g, enzyme_out, x);
  else
    d = __enzyme_autodiff((void *)h, enzyme_out, x);
  return d;
}

__attribute__((noinline)) double tangentOf(int which, double x) {
  switch (which) {
  case 0:
    return __enzyme_fwddiff((void *)f, x, 1.0);
  case 1:
    return __enzyme_fwddiff((void *)g, x, 1.0);
  default:
    return __enzyme_fwddiff((void *)h, x, 1.0);
  }
}

__attribute__((noinline)) double ternary(int useSin, double x) {
  return __enzyme_autodiff(useSin ? (void *)g : (void *)f, enzyme_out, x);
}

int main(void) {
  volatile double vx = 0.7;
  double x = vx;
  double want[3] = {3 * x * x, cos(x), (1 + x) * exp(x)};
  char what[40];
  for (int k = 0; k < 3; k++) {
    snprintf(what, sizeof what, "gradient %d", k);
    check_close(what, gradientOf(k, x), want[k], 1e-14);
    snprintf(what, sizeof what, "tangent %d", k);
    check_close(what, tangentOf(k, x), want[k], 1e-14);
  }
  check_close("ternary sin", ternary(1, x), cos(x), 1e-14);
  check_close("ternary cube", ternary(0, x), 3 * x * x, 1e-14);
  return check_report();
}
