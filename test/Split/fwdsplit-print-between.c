// Two Jacobian columns by __enzyme_fwdsplit after one __enzyme_augmentfwd,
// with a printf of values between them (a debug print, probe45a r01): the
// rerun's inputs cannot change through a call that receives only constant
// data, so it is accepted; it was refused as "memory it may read may be
// written in between". A call given the input array in between is still
// refused, and the message names it. Expected values analytic: the
// Jacobian of p = (cos q0 + cos(q0 + q1), sin q0 + sin(q0 + q1)).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: not %clang -O0 -g -DNUDGE -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not %clang -O2 -g -DNUDGE -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// ERR: error: tapestry: Tapestry's __enzyme_fwdsplit computes the tangent by running 'kin' again {{.*}} but memory it may read may be written in between, by the call to 'nudge' (at {{.*}}fwdsplit-print-between.c:[[@LINE+22]]);
#include "../Integration/Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_nofree;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_fwdsplit(void *, ...);
void nudge(double *q);

void kin(const double *q, double *p) {
  p[0] = cos(q[0]) + cos(q[0] + q[1]);
  p[1] = sin(q[0]) + sin(q[0] + q[1]);
}

int main(void) {
  double q[2] = {0.3, 0.5}, dq[2] = {0, 0}, p[2], dp[2] = {0, 0};
  void *tape =
      __enzyme_augmentfwd((void *)kin, enzyme_dup, q, dq, enzyme_dup, p, dp);
  double tq[2] = {1, 0}, tp[2] = {0, 0};
  __enzyme_fwdsplit((void *)kin, enzyme_nofree, enzyme_dup, q, tq, enzyme_dup,
                    p, tp, tape);
  printf("column 0: %g %g\n", tp[0], tp[1]);
#ifdef NUDGE
  nudge(q); // NUDGE_LINE
#endif
  double tq2[2] = {0, 1}, tp2[2] = {0, 0};
  __enzyme_fwdsplit((void *)kin, enzyme_dup, q, tq2, enzyme_dup, p, tp2, tape);
  double s = sin(q[0]), s1 = sin(q[0] + q[1]);
  double c = cos(q[0]), c1 = cos(q[0] + q[1]);
  check_close("J00", tp[0], -s - s1, 1e-12);
  check_close("J10", tp[1], c + c1, 1e-12);
  check_close("J01", tp2[0], -s1, 1e-12);
  check_close("J11", tp2[1], c1, 1e-12);
  return check_report();
}
