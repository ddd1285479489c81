// A function returning a struct too large for registers (returned in
// memory the caller provides): the request passes a result object and its
// shadow with enzyme_dup first. Forward mode writes the result's tangent
// into the shadow; reverse mode reads the shadow as the result's seed.
// Expected values are analytic. (Without that argument the error says so:
// test/Errors/cxx-request-location.cpp covers the wording of marker errors.)
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_out;
void __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);

typedef struct {
  double a, b, c;
} R3;

R3 f(double x) {
  R3 r = {x * x, sin(x), x * x * x};
  return r;
}

int main(void) {
  const double x = 0.5;
  R3 out, dout;
  __enzyme_fwddiff((void *)f, enzyme_dup, &out, &dout, enzyme_dup, x, 1.0);
  check_close("forward, result", out.b, sin(x), 1e-15);
  check_close("forward, d a", dout.a, 2 * x, 1e-15);
  check_close("forward, d b", dout.b, cos(x), 1e-15);
  check_close("forward, d c", dout.c, 3 * x * x, 1e-15);
  R3 o2, seed = {1, -2, 0.5};
  double dx = __enzyme_autodiff((void *)f, enzyme_dup, &o2, &seed, enzyme_out, x);
  check_close("reverse, seeded by the result's shadow", dx,
              2 * x - 2 * cos(x) + 0.5 * 3 * x * x, 1e-15);
  return check_report();
}
