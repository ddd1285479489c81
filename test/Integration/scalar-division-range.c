// Forward mode of a division by a tiny or huge number: the tangent of x/y
// is (dx - (x/y) dy) / y, which stays finite wherever the result does. The
// textbook form dx/y - (x/y^2) dy overflows -x/y^2 to -inf for y = 1e-160,
// and -inf times a zero tangent is NaN. Forward, batch and reverse agree
// with the analytic derivative.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_width;
typedef struct {
  double d[2];
} D2;
double __enzyme_fwddiff(void *, ...);
D2 __enzyme_fwddiff_2(void *, ...);
D2 __enzyme_autodiff_2(void *, ...);

double quotient(double x, double y) { return x / y; }
float quotientf(float x, float y) { return x / y; }
float __enzyme_fwddiff_f(void *, float, float, float, float);

/* relative comparison that also works for huge values */
static void check_rel(const char *what, double got, double want) {
  check_close(what, got / want, 1.0, 1e-12);
}

int main(void) {
  double x = 2.0, tiny = 1e-160, y = 1e-150, big = 1e200;
  check_rel("d/dx x/1e-160 (forward)",
            __enzyme_fwddiff((void *)quotient, x, 1.0, tiny, 0.0), 1 / tiny);
  check_rel("d/dy x/y at y=1e-150 (forward)",
            __enzyme_fwddiff((void *)quotient, x, 0.0, y, 1.0), -x / y / y);
  check_rel("d/dx x/1e200 (forward)",
            __enzyme_fwddiff((void *)quotient, x, 1.0, big, 0.0), 1 / big);
  check_rel("d/dx + d/dy (forward)",
            __enzyme_fwddiff((void *)quotient, x, 1.0, 4.0, 1.0),
            1 / 4.0 - x / 16.0);
  D2 t = __enzyme_fwddiff_2((void *)quotient, enzyme_width, 2, enzyme_dup, x,
                            1.0, 0.0, enzyme_dup, tiny, 0.0, 0.0);
  check_rel("batch lane 0", t.d[0], 1 / tiny);
  check_close("batch lane 1", t.d[1], 0.0, 0.0);
  D2 g = __enzyme_autodiff_2((void *)quotient, enzyme_out, x, enzyme_out, y);
  check_rel("d/dx (reverse)", g.d[0], 1 / y);
  check_rel("d/dy (reverse)", g.d[1], -x / y / y);
  float xf = 2.0f, tf = 1e-30f;
  check_close("float d/dx x/1e-30 (forward)",
              __enzyme_fwddiff_f((void *)quotientf, xf, 1.0f, tf, 0.0f) * tf,
              1.0, 1e-6);
  return check_report();
}
