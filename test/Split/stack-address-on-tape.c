// Regression (fuzz seed 2454): an address into a stack array, computed
// from a loop's exit value, is kept in the tape; the reverse must then
// accumulate into the tape's copy of the array's shadow, not into a copy of
// its own (the s1[1] term was lost). Split against one-shot and analytic.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <tapestry/thunk.h>
extern int enzyme_out;
typedef struct {
  void *tape;
  double p;
} Aug;
typedef struct {
  double a, b;
} G2;
Aug __enzyme_augmentfwd(void *, ...);
G2 __enzyme_reverse(void *, ...);
G2 __enzyme_autodiff(void *, ...);

static double f(double x0, double x1) {
  double t1 = 0;
  double s1[4];
  for (int j0 = 0; j0 < 4; j0++)
    s1[j0] = sin(x1 * (j0 + 1));
  for (int i0 = 0; i0 < 4; i0++) {
    t1 = s1[(i0 * 2 + 3) % 4];
    x0 += x1;
  }
  return x0 + t1 + s1[0];
}

int main(void) {
  const double x0 = 0.3, x1 = 0.7;
  const double want1 = 4 + 2 * cos(2 * x1) + cos(x1);
  Aug a = __enzyme_augmentfwd((void *)f, enzyme_out, x0, enzyme_out, x1);
  G2 s = __enzyme_reverse((void *)f, enzyme_out, x0, enzyme_out, x1, 1.0,
                          a.tape);
  G2 o = __enzyme_autodiff((void *)f, enzyme_out, x0, enzyme_out, x1);
  check_close("split dx0", s.a, 1, 1e-15);
  check_close("split dx1", s.b, want1, 1e-14);
  check_close("one-shot dx1", o.b, want1, 1e-14);
  /* The reverse writes the tape's copy, so the tape is not reusable. */
  const tapestry_thunk *t = __tapestry_thunk((void *)f, enzyme_out, enzyme_out);
  check_close("not reusable", t->reusable, 0, 0);
  return check_report();
}
