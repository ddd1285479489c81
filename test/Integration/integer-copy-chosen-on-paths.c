// A double copied into a uint64_t with memcpy on one of two paths and
// copied out after they merge: the stored integer is a choice (a phi)
// between two integer loads. No write on either path can change what the
// loads read (the other writes go to a local array), so the choice is made
// among the addresses and the copy is an ordinary one. Was a gradient
// without the copied element's term (d/da = {1, 0} for {2, 0}, {0, 0} for
// {0, 1}), with no error. Reverse and forward against analytic
// derivatives: out[0] = c ? a0 : a1, out[1] = w a0 (w = 1 for c, 0 else).
// (A write on the way that may change the loaded memory: differentiated
// where the bytes are known to be doubles, integer-copy-chosen-read-as-
// double.c, else an error: test/Errors/integer-copy-chosen-on-paths.c.)
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

__attribute__((noinline)) void pick(double *a, double *out, int c, int k) {
  uint64_t t;
  double w[4] = {0};
  if (c) {
    memcpy(&t, a, sizeof t);
    w[k & 3] = 1;
  } else {
    memcpy(&t, a + 1, sizeof t);
    w[(k + 1) & 3] = 2;
  }
  memcpy(out, &t, sizeof t);
  out[1] = w[k & 3] * a[0];
}

int main(void) {
  for (int c = 0; c < 2; c++) {
    double a[2] = {1.5, -2.5}, da[2] = {0, 0}, out[2], dout[2] = {1, 1};
    __enzyme_autodiff((void *)pick, enzyme_dup, a, da, enzyme_dup, out, dout,
                      enzyme_const, c, enzyme_const, 5);
    check_close("reverse d/da0", da[0], c ? 2 : 0, 0);
    check_close("reverse d/da1", da[1], c ? 0 : 1, 0);
    check_close("out[0]", out[0], c ? a[0] : a[1], 0);
    for (int j = 0; j < 2; j++) {
      double ta[2] = {j == 0, j == 1}, tout[2] = {0, 0};
      __enzyme_fwddiff((void *)pick, enzyme_dup, a, ta, enzyme_dup, out, tout,
                       enzyme_const, c, enzyme_const, 5);
      check_close("forward dout0/da", tout[0], c ? (j == 0) : (j == 1), 0);
      check_close("forward dout1/da", tout[1], c && j == 0 ? 1 : 0, 0);
    }
  }
  return check_report();
}
