// A request inside a function that is itself differentiated (a second
// derivative, d2 = d/dx d with d = d/dx f) compiles and gives the analytic
// value whatever the order of the definitions: the inner request is resolved
// first. Before the fix, defining d before g (ORDER=1) failed with the
// misleading "no derivative is known for external function
// '__enzyme_autodiff'", while the other order worked.
// RUN: %clang -O0 -g %s -o %t01 -lm -DORDER=1 2>&1 | FileCheck %s --check-prefix=COMPILE --allow-empty
// RUN: %t01 | FileCheck %s
// RUN: %clang -O2 -g %s -o %t21 -lm -DORDER=1 2>&1 | FileCheck %s --check-prefix=COMPILE --allow-empty
// RUN: %t21 | FileCheck %s
// RUN: %clang -O0 -g %s -o %t02 -lm -DORDER=2 2>&1 | FileCheck %s --check-prefix=COMPILE --allow-empty
// RUN: %t02 | FileCheck %s
// RUN: %clang -O2 -g %s -o %t22 -lm -DORDER=2 2>&1 | FileCheck %s --check-prefix=COMPILE --allow-empty
// RUN: %t22 | FileCheck %s
// COMPILE-NOT: error
// COMPILE-NOT: PLEASE submit a bug report
// COMPILE-NOT: Stack dump
// d2/dx2 x^3 = 6x, exact at x = 2.
// CHECK: cube'' = 12
// d2/dx2 (x^3 + x sin x) = 6x + 2 cos x - x sin x.
// CHECK-NEXT: f''(0.7) ok
// CHECK-NEXT: f''(-1.3) ok
// CHECK-NOT: mismatch
#include <math.h>
#include <stdio.h>
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double cube(double x) { return x * x * x; }
double f(double x) { return x * x * x + x * sin(x); }
#if ORDER == 1
// Inner requests defined before the outer ones.
double dcube(double x) { return __enzyme_autodiff((void *)cube, enzyme_out, x); }
double df(double x) { return __enzyme_autodiff((void *)f, enzyme_out, x); }
double d2cube(double x) { return __enzyme_autodiff((void *)dcube, enzyme_out, x); }
double d2f(double x) { return __enzyme_autodiff((void *)df, enzyme_out, x); }
#else
// Outer requests defined before the inner ones.
double dcube(double x);
double df(double x);
double d2cube(double x) { return __enzyme_autodiff((void *)dcube, enzyme_out, x); }
double d2f(double x) { return __enzyme_autodiff((void *)df, enzyme_out, x); }
double dcube(double x) { return __enzyme_autodiff((void *)cube, enzyme_out, x); }
double df(double x) { return __enzyme_autodiff((void *)f, enzyme_out, x); }
#endif
static void check(double x) {
  double got = d2f(x), want = 6 * x + 2 * cos(x) - x * sin(x);
  int ok = fabs(got - want) <= 1e-12 * (1 + fabs(want));
  printf("f''(%g) %s: %.17g analytic %.17g\n", x, ok ? "ok" : "mismatch", got,
         want);
}
int main(void) {
  printf("cube'' = %.17g\n", d2cube(2.0));
  check(0.7);
  check(-1.3);
  return 0;
}
