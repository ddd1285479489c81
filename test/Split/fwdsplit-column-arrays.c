// Columns of a Jacobian by __enzyme_fwdsplit, each direction in its own
// tangent array set up after the augmented forward (probe31 01): writing a
// later column's array was taken for a write of memory the function may
// read, because the array is passed to the later call; a request reads a
// shadow only as a tangent, so such writes cannot change the rerun. A local
// array the function does read (an input) written in between is still
// refused (test/Errors/fwdsplit-inputs-changed.c). Expected tangents are
// the analytic partial derivatives of y = (x0 sin x1, x1 exp x0, x0 x1 x2).
// RUN: %clang -O0 -g %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <math.h>
#include <stdio.h>

extern int enzyme_dup, enzyme_nofree;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_fwdsplit(void *, ...);

void F(const double *x, double *y) {
  y[0] = x[0] * sin(x[1]);
  y[1] = x[1] * exp(x[0]);
  y[2] = x[0] * x[1] * x[2];
}

int main(void) {
  double x[3] = {0.8, 1.7, -0.6}, y[3], dy[3];
  double dx0[3] = {0, 0, 0};
  void *tape = __enzyme_augmentfwd((void *)F, enzyme_dup, x, dx0,
                                   enzyme_dup, y, dy);
  double e0[3] = {1, 0, 0};
  double e1[3] = {0, 1, 0};
  double e2[3] = {0, 0, 1};
  double J[3][3];
  __enzyme_fwdsplit((void *)F, enzyme_nofree, enzyme_dup, x, e0, enzyme_dup,
                    y, dy, tape);
  for (int i = 0; i < 3; i++)
    J[i][0] = dy[i];
  __enzyme_fwdsplit((void *)F, enzyme_nofree, enzyme_dup, x, e1, enzyme_dup,
                    y, dy, tape);
  for (int i = 0; i < 3; i++)
    J[i][1] = dy[i];
  __enzyme_fwdsplit((void *)F, enzyme_dup, x, e2, enzyme_dup, y, dy, tape);
  for (int i = 0; i < 3; i++)
    J[i][2] = dy[i];
  double Want[3][3] = {
      {sin(x[1]), x[0] * cos(x[1]), 0},
      {x[1] * exp(x[0]), exp(x[0]), 0},
      {x[1] * x[2], x[0] * x[2], x[0] * x[1]},
  };
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      char what[16];
      snprintf(what, sizeof what, "J[%d][%d]", i, j);
      check_close(what, J[i][j], Want[i][j], 1e-12);
    }
  check_close("y[2]", y[2], x[0] * x[1] * x[2], 1e-15);
  return check_report();
}
