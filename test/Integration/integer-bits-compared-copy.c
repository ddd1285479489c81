// The larger of two non-negative doubles picked by comparing their bits as
// uint64_t (the order of the bits is the order of the values), copied out
// as an integer: out = max(a0, a1), so d out/d a0 = 1 here (a0 > a1).
// XFAIL: *
// Known bug (a silent wrong number, docs/no-silent-wrong-numbers.md, Open):
// the integer loads are compared, so they are not copies, and they say the
// memory holds integers: the select of them that is stored moves no
// derivative and no error says so (d/da0 is 0). The caller's doubles would
// tell, but the function's own reads win; reading the bits as a double for
// the copy (the select made among the doubles) would differentiate it.
// RUN: %clang -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdint.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

void larger(const double *a, double *out) {
  uint64_t t0, t1;
  memcpy(&t0, a, sizeof t0);
  memcpy(&t1, a + 1, sizeof t1);
  uint64_t t = t0 > t1 ? t0 : t1;
  memcpy(out, &t, sizeof t);
}

int main(void) {
  double a[2] = {2.5, 1.5}, da[2] = {0, 0}, out = 0, dout = 1;
  __enzyme_autodiff((void *)larger, enzyme_dup, a, da, enzyme_dup, &out,
                    &dout);
  check_close("out", out, 2.5, 0);
  check_close("d out/d a0", da[0], 1, 0);
  check_close("d out/d a1", da[1], 0, 0);
  return check_report();
}
