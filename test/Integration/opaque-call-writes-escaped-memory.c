// A call to a function of another file (no body here, no arguments) made
// while an array with derivatives is reachable through a global it stored
// the array's address into: the callee scales an element of it, and the
// derivative must include that, or the request must be an error saying
// the call may change memory with derivatives. Found by review28.
// XFAIL: *
// Known bug: the call is taken as inactive (it has no arguments and no
// result) and the derivative silently misses the factor 1.5 on t[2].
// RUN: %clang -O0 %s %S/Inputs/opaque-call-scales-global.c -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s %S/Inputs/opaque-call-scales-global.c -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

extern double *scratchSeen;
void rescaleSeen(void);

// sum_i t_i x_i with t_i = x_i^2, t_2 scaled by 1.5 in the other file.
static double f(const double *x, int n) {
  double *t = malloc(n * sizeof(double));
  scratchSeen = t;
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  rescaleSeen();
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * x[i];
  free(t);
  return s;
}

int main(void) {
  enum { N = 5 };
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = 0.5 + 0.25 * i;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  // d/dx_i of c_i x_i^3 is 3 c_i x_i^2, c_2 = 1.5, the others 1.
  for (int i = 0; i < N; i++) {
    char what[32];
    snprintf(what, sizeof what, "d/dx[%d]", i);
    check_close(what, dx[i], (i == 2 ? 1.5 : 1.0) * 3 * x[i] * x[i], 1e-12);
  }
  return check_report();
}
