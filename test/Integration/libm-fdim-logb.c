// C99's fdim (positive difference, max(x - y, 0): a hinge) and logb (the
// exponent, as a double: piecewise constant) were "no derivative is known
// for external function 'fdim'" (probe24a R5). fdim becomes x <= y ? 0 :
// x - y; logb carries no derivative. nextafter(x, y) (x moved one unit in
// the last place towards y, probe24a R5) follows x and is constant along y.
// Reverse and forward mode, both sides of the hinge, -O0 and -O2 and the opt
// flow. Expected: analytic.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %plain_cc -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cc -O2 %t.bc -lm -o %to && %to | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
typedef struct {
  double dx, dy;
} Grad2;
Grad2 __enzyme_autodiff2(void *, ...);

/* A hinge loss: sum of fdim(x, y) * x. */
double hinge(double x, double y) { return fdim(x, y) * x; }
float hingef(float x, float y) { return fdimf(x, y) * x; }
/* The exponent shifts a log: logb(x) + log2(x). */
double exponent(double x) { return logb(x) + log2(x); }
/* A value nudged off a boundary: 3 nextafter(x^2, y). */
double nudged(double x, double y) { return 3.0 * nextafter(x * x, y); }
float nudgedf(float x, float y) { return 3.0f * nextafterf(x * x, y); }

int main(void) {
  volatile double v1 = 1.3, v2 = 0.5;
  double hi = v1, lo = v2;
  /* x > y: d/dx = 2x - y, d/dy = -x */
  Grad2 g = __enzyme_autodiff2((void *)hinge, enzyme_out, hi, enzyme_out, lo);
  check_close("hinge active d/dx", g.dx, 2 * hi - lo, 1e-15);
  check_close("hinge active d/dy", g.dy, -hi, 1e-15);
  check_close("hinge active forward",
              __enzyme_fwddiff((void *)hinge, enzyme_dup, hi, 1.0, enzyme_dup,
                               lo, 0.0),
              2 * hi - lo, 1e-15);
  /* x < y: fdim is 0, so is its derivative */
  g = __enzyme_autodiff2((void *)hinge, enzyme_out, lo, enzyme_out, hi);
  check_close("hinge flat d/dx", g.dx, 0, 0);
  check_close("hinge flat d/dy", g.dy, 0, 0);
  check_close("hinge float",
              __enzyme_fwddiff((void *)hingef, enzyme_dup, (float)hi, 1.0f,
                               enzyme_dup, (float)lo, 0.0f),
              2 * (float)hi - (float)lo, 1e-6);
  /* d/dx (logb x + log2 x) = 1 / (x ln 2) */
  check_close("logb reverse",
              __enzyme_autodiff((void *)exponent, enzyme_out, 5.0),
              1 / (5.0 * log(2.0)), 1e-15);
  check_close("logb forward",
              __enzyme_fwddiff((void *)exponent, enzyme_dup, 5.0, 1.0),
              1 / (5.0 * log(2.0)), 1e-15);
  /* d/dx 3 nextafter(x^2, y) = 6x, d/dy = 0 */
  g = __enzyme_autodiff2((void *)nudged, enzyme_out, 1.5, enzyme_out, 0.0);
  check_close("nextafter d/dx", g.dx, 9.0, 1e-15);
  check_close("nextafter d/dy", g.dy, 0, 0);
  check_close("nextafter forward",
              __enzyme_fwddiff((void *)nudged, enzyme_dup, 1.5, 1.0,
                               enzyme_dup, 4.0, 1.0),
              9.0, 1e-15);
  check_close("nextafterf forward",
              __enzyme_fwddiff((void *)nudgedf, enzyme_dup, 1.5f, 1.0f,
                               enzyme_dup, 4.0f, 1.0f),
              9.0, 1e-6);
  return check_report();
}
