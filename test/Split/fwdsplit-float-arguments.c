// __enzyme_fwdsplit right after __enzyme_augmentfwd with the same float
// arguments: a float passed through `...` arrives as a double, and the
// request converts it back before each call, so the two calls' values
// were different instructions and the rerun was refused ("the value of
// parameter 3 is not the one given to __enzyme_augmentfwd", probe25a F3).
// The values compared are now what the calls pass. Expected: analytic
// tangent of e = th * sum p_i^2 along tp = (1, 0): 2 p0 th.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <tapestry/enzyme.h>

typedef struct {
  void *tape;
  float primal;
} Aug;
Aug __enzyme_augmentfwd_s(void *, ...);
float __enzyme_fwdsplit_s(void *, ...);

float energy(const float *p, int n, float th) {
  float e = 0;
  for (int i = 0; i < n; i++)
    e += p[i] * p[i] * th;
  return e;
}

int main(void) {
  float p[2] = {0.5f, -0.25f}, tp[2] = {1, 0}, th = 0.35f;
  Aug a = __enzyme_augmentfwd_s((void *)energy, enzyme_dup, p, tp,
                                enzyme_const, 2, enzyme_const, th);
  float t = __enzyme_fwdsplit_s((void *)energy, enzyme_dup, p, tp,
                                enzyme_const, 2, enzyme_const, th, a.tape);
  check_close("tangent", t, 2 * 0.5f * 0.35f, 1e-6);
  check_close("primal", a.primal, 0.35f * (0.25f + 0.0625f), 1e-6);
  return check_report();
}
