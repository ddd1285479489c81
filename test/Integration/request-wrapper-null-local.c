// A helper with an optional callback, called with 0, with a function, and
// under `if (g)` with a local `g = 0` (many times, so that the caller's
// blocks move): the helper's sites passing null are inlined and the
// caller's tests of such values folded, which removes the `if (g)` sites
// before they are inlined. (Review44 F1: the list of sites still held
// them, a use after free that crashed clang at every -O level.) Expected
// values are analytic: sq'(3) = 6.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_out;
double __enzyme_autodiff(void *, ...);

typedef double (*fn_t)(double);

static double sq(double x) { return x * x; }

static int calls, missing;

static double helper(fn_t f, double x) {
  if (!f) {
    missing++;
    return 0;
  }
  calls++;
  return __enzyme_autodiff((void *)f, enzyme_out, x);
}

#define FOUR(s) s s s s

int main(void) {
  fn_t g = 0;
  double d = 0;
  FOUR(FOUR(if (g) d += helper(g, 2.0);))
  d += helper(0, 1.0);
  d += helper(sq, 3.0);
  FOUR(FOUR(if (g) d += helper(g, 2.0);))
  check_close("sq'(3) through the helper", d, 6.0, 1e-12);
  check_close("helper runs", calls, 1, 0);
  check_close("null callbacks seen", missing, 1, 0);
  return check_report();
}
