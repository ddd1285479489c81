// A C user's program that casts Enzyme's entry point once to a typed
// function pointer kept in a local variable (to get a struct result without
// declaring a second prototype), then calls the gradient of a Rosenbrock
// function through that variable. The same cast stored in a static const
// global works; through a local the call reaches the linker untouched.
// Once a link error ("undefined reference to `__enzyme_autodiff'"): the
// request was not seen through the variable. Calls through a local
// variable that holds only the entry point are now requests
// (resolveEntryPointVariables, Passes/TapestryPass.cpp). Expected: the
// analytic gradient (-2(1-x) - 400 x (y - x^2), 200 (y - x^2)).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

typedef struct {
  double dx, dy;
} grad2;
typedef grad2 (*grad2_fn)(void *, ...);
extern int enzyme_out;
extern double __enzyme_autodiff(void *, ...);

double rosenbrock(double x, double y) {
  double a = 1 - x, b = y - x * x;
  return a * a + 100 * b * b;
}

int main(void) {
  grad2_fn gradient = (grad2_fn)__enzyme_autodiff;
  const double pts[3][2] = {{1.2, 1.88}, {-0.5, 0.3}, {1.0, 1.0}};
  for (int k = 0; k < 3; ++k) {
    double x = pts[k][0], y = pts[k][1];
    grad2 g = gradient((void *)rosenbrock, enzyme_out, x, enzyme_out, y);
    check_close("d/dx", g.dx, -2 * (1 - x) - 400 * x * (y - x * x), 1e-12);
    check_close("d/dy", g.dy, 200 * (y - x * x), 1e-12);
  }
  return check_report();
}
