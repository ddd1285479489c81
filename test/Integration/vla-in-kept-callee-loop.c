// A one-shot __enzyme_autodiff whose callee stays a call (noinline, or any
// call at -O0) and declares a variable-length array inside a loop: the
// callee's derivative is split into halves, and each iteration's array,
// whose contents the reverse half needs, is a heap block kept until the
// reverse returns (this was the error "it uses a stack array of variable
// size, whose contents the reverse half needs"). One array outside loops:
// test/Integration/vla-in-kept-callee.c; the split the user holds keeps
// the error: test/Errors/split-variable-stack-array.c.
// f = H(x) x0 with H = sum_r sum_i sin^2((r + 1) x_i), r < 3:
// df/dx_j = x0 sum_r (r + 1) sin(2 (r + 1) x_j) + H [j = 0].
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double helper(const double *x, int n, int rounds) {
  double s = 0;
  for (int r = 0; r < rounds; ++r) {
    double t[n];
    for (int i = 0; i < n; i++)
      t[i] = sin(x[i] * (r + 1));
    for (int i = 0; i < n; i++)
      s += t[i] * t[i];
  }
  return s;
}

double f(const double *x, int n) { return helper(x, n, 3) * x[0]; }

int main(void) {
  double x[3] = {0.3, -0.7, 1.1}, dx[3] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 3);
  double H = 0;
  for (int r = 0; r < 3; r++)
    for (int i = 0; i < 3; i++)
      H += sin((r + 1) * x[i]) * sin((r + 1) * x[i]);
  char what[16];
  for (int j = 0; j < 3; j++) {
    double want = j == 0 ? H : 0;
    for (int r = 0; r < 3; r++)
      want += x[0] * (r + 1) * sin(2 * (r + 1) * x[j]);
    snprintf(what, sizeof what, "d/dx%d", j);
    check_close(what, dx[j], want, 1e-13);
  }
  return check_report();
}
