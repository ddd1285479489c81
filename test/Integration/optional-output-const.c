// An optional output (a debug copy of an intermediate array, written last)
// passed as enzyme_const NULL: the request differentiates a copy of the
// function in which that parameter is null, so the guarded copy is gone.
// It used to be refused ("memory holding active values is copied through
// parameter 2, which is enzyme_const") because the loads of `x` might
// alias it (probe25b R1). (Given a buffer as enzyme_const, the copy is
// still refused: a derivative may serve a callee that runs again and reads
// what its last run wrote, so reads before the write count.) Gradient
// against the analytic one, at -O0 and -O2 and in the opt flow.
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

/* An output written element by element, reading x again. */
double energy_stores(const double *x, int n, double *trace) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sin(x[i]) * x[i];
  if (trace)
    for (int i = 0; i < n; i++)
      trace[i] = s * x[i];
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
    double g[3] = {0};
    __enzyme_autodiff((void *)energy_stores, enzyme_dup, x, g, enzyme_const, 3,
                      enzyme_const, (double *)0);
    for (int i = 0; i < 3; i++)
      check_close("energy_stores", g[i], sin(x[i]) + x[i] * cos(x[i]), 1e-12);
  }
  return check_report();
}
