// A double copied into a uint64_t with memcpy on two paths and copied out
// after they merge, each path also writing the element it picked to a
// global double, which may be a[0] or a[1]: the write may change the
// loaded memory, so the choice cannot be made among the addresses at the
// store (integer-copy-chosen-on-paths.c), but the function reads those
// bytes as doubles, so the store stores the choice among double loads made
// beside the integer ones. Was an error (before that, a gradient of 0 with
// no error). Reverse and forward against analytic derivatives:
// out = c ? a0 : a1.
// RUN: %clang -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 -march=native %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdint.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

double last; // the last value picked, for the caller

void pick(double *a, double *out, int c) {
  uint64_t t;
  if (c) {
    memcpy(&t, a, sizeof t);
    last = a[0];
  } else {
    memcpy(&t, a + 1, sizeof t);
    last = a[1];
  }
  memcpy(out, &t, sizeof t);
}

int main(void) {
  for (int c = 0; c < 2; c++) {
    double a[2] = {2.5, 1.5}, da[2] = {0, 0}, out = 0, dout = 1;
    __enzyme_autodiff((void *)pick, enzyme_dup, a, da, enzyme_dup, &out,
                      &dout, enzyme_const, c);
    check_close("out", out, c ? 2.5 : 1.5, 0);
    check_close("last", last, c ? 2.5 : 1.5, 0);
    check_close("rev d out/d a0", da[0], c ? 1 : 0, 0);
    check_close("rev d out/d a1", da[1], c ? 0 : 1, 0);
    double ta[2] = {0.25, 4}, o = 0, to = 0;
    __enzyme_fwddiff((void *)pick, enzyme_dup, a, ta, enzyme_dup, &o, &to,
                     enzyme_const, c);
    check_close("fwd d out", to, c ? 0.25 : 4, 0);
  }
  return check_report();
}
