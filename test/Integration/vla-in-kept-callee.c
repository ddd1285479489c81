// A one-shot __enzyme_autodiff whose callee stays a call (noinline, or any
// call at -O0) and uses a stack array of variable size: the callee's
// derivative is split into halves, which a stack array cannot cross. It
// was refused, telling the user to "use __enzyme_autodiff", which is what
// the program does (probe27); the array and its shadow now live on the
// heap between the halves, freed by the callee's reverse. Arrays inside a
// loop of such a callee: test/Integration/vla-in-kept-callee-loop.c.
// RUN: %clang -O2 -DKEPT %s -o %t1 -lm && %t1 | FileCheck %s
// RUN: %clang -O0 %s -o %t0 -lm && %t0 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 -lm && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

#ifdef KEPT
__attribute__((noinline))
#endif
double helper(const double *x, int n) {
  double t[n];
  for (int i = 0; i < n; i++)
    t[i] = sin(x[i]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * t[i];
  return s;
}

double f(const double *x, int n) { return helper(x, n) * x[0]; }

int main(void) {
  double x[3] = {0.3, 0.5, 0.7}, dx[3] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 3);
  double s = 0;
  for (int i = 0; i < 3; i++)
    s += sin(x[i]) * sin(x[i]);
  check_close("d/dx0", dx[0], s + x[0] * 2 * sin(x[0]) * cos(x[0]), 1e-12);
  for (int i = 1; i < 3; i++)
    check_close("d/dxi", dx[i], x[0] * 2 * sin(x[i]) * cos(x[i]), 1e-12);
  return check_report();
}
