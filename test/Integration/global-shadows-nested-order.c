// Nested derivatives of code that writes globals, whatever the order of
// the requests: two outer requests at the same depth reach a helper that
// reads the global H, which only the second writes (the helper's
// derivative is cached, so which globals have shadows at a depth must not
// depend on which request came first: B' lost dH/dx, found in review), and
// third derivatives through a global in every order of forward and
// reverse (shadows of depth 2, and of depth-1 shadows). Expected
// derivatives are analytic: f = x^2 sin x through G,
// A = f' + H x with H = 0.5 held constant, B = f' + x^3 (H = x^2).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>

extern int enzyme_out;
double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);

double G, H = 0.5;
double f(double x) {
  G = x * x;
  return G * sin(x);
}
static double d2(double x) {
  return 2 * sin(x) + 4 * x * cos(x) - x * x * sin(x);
}
static double d3(double x) {
  return 6 * cos(x) - 6 * x * sin(x) - x * x * cos(x);
}
double grad_f(double x) { return __enzyme_autodiff((void *)f, enzyme_out, x); }
double tan_f(double x) { return __enzyme_fwddiff((void *)f, x, 1.0); }
__attribute__((noinline)) double h(double x) { return H * x; }
double A(double x) { return grad_f(x) + h(x); }
double B(double x) {
  H = x * x;
  return grad_f(x) + h(x);
}
double fr(double x) { return __enzyme_fwddiff((void *)grad_f, x, 1.0); }
double ff(double x) { return __enzyme_fwddiff((void *)tan_f, x, 1.0); }
double rr(double x) { return __enzyme_autodiff((void *)grad_f, enzyme_out, x); }

int main(void) {
  double x = 0.7;
  H = 0.5;
  check_close("A'", __enzyme_fwddiff((void *)A, x, 1.0), d2(x) + 0.5, 1e-12);
  check_close("B'", __enzyme_fwddiff((void *)B, x, 1.0), d2(x) + 3 * x * x,
              1e-12);
  H = 0.5;
  check_close("A' again", __enzyme_fwddiff((void *)A, x, 1.0), d2(x) + 0.5,
              1e-12);
  for (x = 0.5; x < 3; x += 1.1) {
    check_close("fr", fr(x), d2(x), 1e-12);
    check_close("forward over fr", __enzyme_fwddiff((void *)fr, x, 1.0), d3(x),
                1e-10);
    check_close("reverse over fr",
                __enzyme_autodiff((void *)fr, enzyme_out, x), d3(x), 1e-10);
    check_close("forward over ff", __enzyme_fwddiff((void *)ff, x, 1.0), d3(x),
                1e-10);
    check_close("forward over rr", __enzyme_fwddiff((void *)rr, x, 1.0), d3(x),
                1e-10);
    check_close("reverse over rr",
                __enzyme_autodiff((void *)rr, enzyme_out, x), d3(x), 1e-10);
  }
  return check_report();
}
