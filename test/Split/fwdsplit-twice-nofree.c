// Two __enzyme_fwdsplit calls on one tape, the first with enzyme_nofree,
// only the tangents changed in between: Tapestry runs the function again
// for each, which writes only what the function writes and does not read,
// so the second call is as valid as the first (it was refused, the first
// call taken for a write of the function's inputs: probe27 F5). Columns of
// a Jacobian, one direction per call, from one augmented forward. Expected
// tangents are the analytic partial derivatives.
// RUN: %clang -O0 -g %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <math.h>

extern int enzyme_dup, enzyme_const, enzyme_nofree;
typedef struct {
  void *tape;
  double primal;
} AugRet;
AugRet __enzyme_augmentfwd(void *, ...);
double __enzyme_fwdsplit(void *, ...);
void *__enzyme_augmentfwd_v(void *, ...);
void __enzyme_fwdsplit_v(void *, ...);

double f(const double *p) { return sin(p[0]) * p[1]; }

// y = (p0 p1, exp(p0) + p2^2, p1 / p2); writes y, reads p.
void g(const double *p, double *y) {
  y[0] = p[0] * p[1];
  y[1] = exp(p[0]) + p[2] * p[2];
  y[2] = p[1] / p[2];
}

int main(void) {
  double p[2] = {0.5, 2.0}, tp[2] = {1.0, 0.0};
  AugRet a = __enzyme_augmentfwd((void *)f, enzyme_dup, p, tp);
  double t0 =
      __enzyme_fwdsplit((void *)f, enzyme_nofree, enzyme_dup, p, tp, a.tape);
  tp[0] = 0;
  tp[1] = 1;
  double t1 = __enzyme_fwdsplit((void *)f, enzyme_dup, p, tp, a.tape);
  check_close("df/dp0", t0, cos(0.5) * 2, 1e-12);
  check_close("df/dp1", t1, sin(0.5), 1e-12);

  double q[3] = {0.3, -1.2, 1.7}, dq[3], y[3], dy[3];
  void *tape = __enzyme_augmentfwd_v((void *)g, enzyme_dup, q, dq, enzyme_dup,
                                     y, dy);
  // All columns but the last in a loop, keeping the tape; the last one
  // after the loop releases it.
  double J[3][3];
  for (int j = 0; j < 2; j++) {
    for (int i = 0; i < 3; i++)
      dq[i] = i == j;
    __enzyme_fwdsplit_v((void *)g, enzyme_nofree, enzyme_dup, q, dq,
                        enzyme_dup, y, dy, tape);
    for (int i = 0; i < 3; i++)
      J[i][j] = dy[i];
  }
  for (int i = 0; i < 3; i++)
    dq[i] = i == 2;
  __enzyme_fwdsplit_v((void *)g, enzyme_dup, q, dq, enzyme_dup, y, dy, tape);
  for (int i = 0; i < 3; i++)
    J[i][2] = dy[i];
  const double want[3][3] = {{q[1], q[0], 0},
                             {exp(q[0]), 0, 2 * q[2]},
                             {0, 1 / q[2], -q[1] / (q[2] * q[2])}};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      char what[32];
      snprintf(what, sizeof what, "dy%d/dq%d", i, j);
      check_close(what, J[i][j], want[i][j], 1e-12);
    }
  check_close("y0", y[0], q[0] * q[1], 1e-12);
  return check_report();
}
