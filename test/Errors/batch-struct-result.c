// Batch forward mode (enzyme_width) of a function returning a struct by
// value: not supported yet, and said so, whether the C ABI returns the
// struct in registers (two doubles) or through memory (three doubles, sret:
// the result's hidden parameter was counted among the arguments, "too few
// arguments: 'f' takes 2 parameters", probe25b M1). One direction at a
// time works (checked: analytic).
// RUN: not %clang -O2 -c %s -o /dev/null -DBATCH2 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: not %clang -O2 -c %s -o /dev/null -DBATCH3 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: not %clang -O0 -c %s -o /dev/null -DBATCH3 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: %clang -O2 %s -lm -o %t && %t | FileCheck %s
// BATCH: error: tapestry: 'f{{[23]}}' returns a struct by value; batch mode (enzyme_width) does not return the tangents of a struct yet: request one direction at a time, or add enzyme_const_return
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_width, enzyme_dup;
typedef struct {
  double v[2];
} V2;
typedef struct {
  double v[3];
} V3;
typedef struct {
  V2 d[2];
} V2x2;
typedef struct {
  V3 d[2];
} V3x2;

V2 f2(const double *q) {
  V2 p = {{sin(q[0]), q[0] * q[1]}};
  return p;
}
V3 f3(const double *q) {
  V3 p = {{sin(q[0]), q[0] * q[1], cos(q[1])}};
  return p;
}

#ifdef BATCH2
V2x2 __enzyme_fwddiff(void *, ...);
V2x2 jac(double *q, double *s0, double *s1) {
  return __enzyme_fwddiff((void *)f2, enzyme_width, 2, enzyme_dup, q, s0, s1);
}
#elif defined(BATCH3)
V3x2 __enzyme_fwddiff(void *, ...);
V3x2 jac(double *q, double *s0, double *s1) {
  return __enzyme_fwddiff((void *)f3, enzyme_width, 2, enzyme_dup, q, s0, s1);
}
#else
V3 __enzyme_fwddiff(void *, ...);
int main(void) {
  double q[2] = {0.3, 0.7}, s0[2] = {1, 0};
  V3 t = __enzyme_fwddiff((void *)f3, enzyme_dup, q, s0);
  check_close("d sin(q0)/dq0", t.v[0], cos(0.3), 1e-15);
  check_close("d q0 q1/dq0", t.v[1], 0.7, 1e-15);
  check_close("d cos(q1)/dq0", t.v[2], 0, 0);
  return check_report();
}
#endif
