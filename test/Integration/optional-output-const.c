// An optional output (a debug copy of an intermediate array, written last)
// passed as enzyme_const: NULL, or a buffer the caller reads. Nothing in
// the function reads the copy back, so no derivative is lost; it used to be
// refused ("memory holding active values is copied through parameter 2,
// which is enzyme_const") because the loads of `x` before the copy might
// alias it (probe25b R1). Gradient against the analytic one, at -O0 and
// -O2 and in the opt flow.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %plain_cc -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cc %t.bc -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

double energy(const double *x, double *u_out) {
  double u[3];
  for (int i = 0; i < 3; i++)
    u[i] = x[i] * x[i] * (i + 1);
  if (u_out)
    memcpy(u_out, u, sizeof u);
  return u[0] * u[1] + u[2];
}

/* An output written element by element, after the last read of x. (With
   `trace[i] = s * x[i]` the loads of x after the first store might read it
   back, x and trace being two pointers that may alias: refused.) */
double energy_stores(const double *x, int n, double *trace) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sin(x[i]) * x[i];
  if (trace)
    for (int i = 0; i < n; i++)
      trace[i] = s * (i + 1);
  return s;
}

int main(void) {
  double x[3] = {0.8, -1.3, 0.45};
  // energy = 2 x0^2 x1^2 + 3 x2^2
  double want[3] = {4 * x[0] * x[1] * x[1], 4 * x[0] * x[0] * x[1],
                    6 * x[2]};
  {
    double g[3] = {0};
    __enzyme_autodiff((void *)energy, enzyme_dup, x, g, enzyme_const,
                      (double *)0);
    for (int i = 0; i < 3; i++)
      check_close("energy, NULL output", g[i], want[i], 1e-12);
  }
  {
    double g[3] = {0}, u[3] = {0};
    __enzyme_autodiff((void *)energy, enzyme_dup, x, g, enzyme_const, u);
    for (int i = 0; i < 3; i++)
      check_close("energy, buffer output", g[i], want[i], 1e-12);
    check_close("energy, the output's value", u[1], 2 * x[1] * x[1], 1e-15);
  }
  {
    double g[3] = {0}, t[3] = {0};
    __enzyme_autodiff((void *)energy_stores, enzyme_dup, x, g, enzyme_const, 3,
                      enzyme_const, t);
    for (int i = 0; i < 3; i++)
      check_close("energy_stores", g[i], sin(x[i]) + x[i] * cos(x[i]), 1e-12);
  }
  return check_report();
}
