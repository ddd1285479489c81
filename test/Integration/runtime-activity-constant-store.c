// An active value stored through a pointer read from a table that holds an
// active pointer (w) and a constant one (seq, enzyme_const), then read
// back. Which one the pointer is, is known only at run time: where it is
// the active one the derivative is exact; where it is the constant one the
// stored value's derivative would have nowhere to go, and the derivative
// stops with the reason instead of returning a wrong number (it once was a
// compile-time error for both, which rejected correct programs such as
// Eigen's product evaluators at -O0).
// RUN: %clang -g -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clang -g -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: not %t0 constant 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: not %t2 constant 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: not %t0 constant-fwd 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: not %t2 constant-fwd 2>&1 | FileCheck %s --check-prefix=STOP
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// STOP: tapestry: {{.*}}runtime-activity-constant-store.c:[[@LINE+14]]{{.*}}: in the derivative of 'stored', an active value is stored through a pointer to constant data (enzyme_const or a global; the pointer was read from memory that also holds active pointers) and read back, so its derivative would be lost; pass the constant data as enzyme_dup with a zeroed shadow
// STOP-NOT: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

/* rows[k][0] = w1^2, then s = rows[k][0] w0 + rows[1-k][1]. */
__attribute__((noinline)) double stored(double *w, double *seq, int k) {
  double **rows = malloc(2 * sizeof *rows);
  rows[0] = w;
  rows[1] = seq;
  rows[k][0] = w[1] * w[1];
  double s = rows[k][0] * w[0] + rows[1 - k][1];
  free(rows);
  return s;
}

int main(int argc, char **argv) {
  double seq[2] = {3.0, -2.0};
  if (argc > 1) {
    /* k = 1: the value goes to seq, which has no shadow. */
    double w[2] = {0.5, 1.5}, dw[2] = {0, 0};
    if (!strcmp(argv[1], "constant"))
      __enzyme_autodiff((void *)stored, enzyme_dup, w, dw, enzyme_const, seq,
                        enzyme_const, 1);
    else
      __enzyme_fwddiff((void *)stored, enzyme_dup, w, dw, enzyme_const, seq,
                       enzyme_const, 1);
    printf("ALL PASSED\n");
    return 0;
  }
  /* k = 0: w0 = w1^2, s = w1^4 + seq1; ds/dw0 = 0, ds/dw1 = 4 w1^3. */
  double w[2] = {0.5, 1.5}, dw[2] = {0, 0};
  __enzyme_autodiff((void *)stored, enzyme_dup, w, dw, enzyme_const, seq,
                    enzyme_const, 0);
  check_close("reverse ds/dw0", dw[0], 0.0, 1e-12);
  check_close("reverse ds/dw1", dw[1], 4 * 1.5 * 1.5 * 1.5, 1e-12);
  check_close("seq unchanged", seq[0] == 3.0 && seq[1] == -2.0, 1, 0);
  double v[2] = {0.5, 1.5}, dv[2] = {0, 1};
  check_close("forward ds/dw1",
              __enzyme_fwddiff((void *)stored, enzyme_dup, v, dv,
                               enzyme_const, seq, enzyme_const, 0),
              4 * 1.5 * 1.5 * 1.5, 1e-12);
  double u[2] = {0.5, 1.5}, du[2] = {1, 0};
  check_close("forward ds/dw0",
              __enzyme_fwddiff((void *)stored, enzyme_dup, u, du,
                               enzyme_const, seq, enzyme_const, 0),
              0.0, 1e-12);
  return check_report();
}
