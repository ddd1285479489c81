// Reduced from the tape fuzz campaign (features all,tape; seed 1949 at -O2,
// wrong-rev: REV a0[0] 0 vs finite difference -2.4375, forward mode right).
// A local array filled by memcpy from an active array, then ONE element
// copied back into that array with memcpy (8 bytes): q[2] = q[0]. In h
// (differentiated on its own: noinline) only q[1] is read with a type, so
// the reverse of the 24-byte copy q -> c knew offset 8 as double and took
// the untyped bytes at 0 and 16 for bytes without adjoints: the adjoint of
// q[0] was silently dropped (0, wants 1) at every -O level. Memory that
// holds one floating-point type and no pointers is an array of that type,
// untouched elements included (ByteLayout::fillGaps).
// RUN: %clang -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <string.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

/* q[2] = q[0] through a local copy (the copy repeated, as generated);
   returns q[1] */
static __attribute__((noinline)) double h(double *q) {
  double c[3];
  memcpy(c, q, 3 * sizeof *c);
  for (int i = 0; i < 4; i++)
    memcpy(q + 2, c, sizeof *q);
  return q[1];
}
/* q[1] + q[2] after h: q[1] + q[0] */
double f(double *q) {
  double r = h(q);
  return r + q[2];
}

int main(void) {
  double a[3] = {1.5, -0.5, 2.0}, da[3] = {0, 0, 0};
  __enzyme_autodiff((void *)f, a, da);
  /* df/dq = (1, 1, 0): q[2] is overwritten before it is read */
  check_close("reverse d/dq0", da[0], 1.0, 1e-12);
  check_close("reverse d/dq1", da[1], 1.0, 1e-12);
  check_close("reverse d/dq2", da[2], 0.0, 1e-12);
  double b[3] = {1.5, -0.5, 2.0}, t[3] = {1, 0, 0};
  check_close("forward d/dq0", __enzyme_fwddiff((void *)f, b, t), 1.0, 1e-12);
  double h = 1e-6, p[3] = {1.5 + h, -0.5, 2.0}, m[3] = {1.5 - h, -0.5, 2.0};
  check_close("finite difference d/dq0", (f(p) - f(m)) / (2 * h), 1.0, 1e-8);
  return check_report();
}
