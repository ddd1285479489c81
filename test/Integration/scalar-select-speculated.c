// Branches whose untaken side has a non-finite partial derivative, once the
// branch has become a select (with -fno-math-errno, sqrt and log are
// speculatable intrinsics and CFG simplification if-converts the branch).
// The zero adjoint sent to the untaken side must stay zero (not 0 * NaN):
// reverse mode must give the derivative of the taken side.
// (The same functions pass without -fno-math-errno: see scalar-helpers.c.)
// RUN: %clang -O0 -fno-math-errno %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fno-math-errno %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_out, enzyme_dup;
typedef struct {
  double d0, d1;
} D2;
double __enzyme_autodiff(void *, ...);
D2 __enzyme_autodiff_2(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double opaque(double x) {
  volatile double v = x;
  return v;
}

static double branchy(double x) {
  if (x < 0)
    return -x * x;
  return sqrt(x);
}
/* x > 0, y < 0: sqrt(x) y - y^2 */
double use_branchy(double x, double y) { return branchy(x) * y + branchy(y); }
/* log behind a test for zero: 1 at x = 0 */
double log_or_x(double x) { return x != 0 ? log(x) : x; }

int main(void) {
  double x = opaque(0.7), y = opaque(-1.2);
  double wx = 0.5 / sqrt(x) * y, wy = sqrt(x) - 2 * y;
  D2 g = __enzyme_autodiff_2((void *)use_branchy, enzyme_out, x, enzyme_out, y);
  check_close("speculated sqrt reverse d/dx", g.d0, wx, 1e-12);
  check_close("speculated sqrt reverse d/dy", g.d1, wy, 1e-12);
  check_close("speculated sqrt forward",
              __enzyme_fwddiff((void *)use_branchy, enzyme_dup, x, 1.0,
                               enzyme_dup, y, 1.0),
              wx + wy, 1e-12);
  double z = opaque(0.0);
  check_close("speculated log reverse at 0",
              __enzyme_autodiff((void *)log_or_x, enzyme_out, z), 1.0, 1e-12);
  check_close("speculated log forward at 0",
              __enzyme_fwddiff((void *)log_or_x, enzyme_dup, z, 1.0), 1.0,
              1e-12);
  return check_report();
}
