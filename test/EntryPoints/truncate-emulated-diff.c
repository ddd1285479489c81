// Truncation to an emulated format (11 exponent, 20 mantissa bits) and
// differentiation combine both ways, as for the target's own formats:
// a derivative of a function that calls a truncated one is that of the
// plain operations (the rounding corrections are inactive), and a
// truncated derivative computes every operation in the format. Expected
// derivatives are analytic.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include "Inputs/emulated-reference.h"

typedef double (*fn1)(double);
void *__enzyme_truncate_op_func(void *, ...);
extern int enzyme_out, enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double poly(double x) { return x * x * x + sin(x) / (1 + x * x); }
static double dpoly_exact(double x) {
  double d = 1 + x * x;
  return 3 * x * x + cos(x) / d - sin(x) * 2 * x / (d * d);
}

static double poly_truncated(double x) {
  return ((fn1)__enzyme_truncate_op_func((void *)poly, 64, 11, 20))(x);
}

static double dpoly(double x) {
  return __enzyme_autodiff((void *)poly, enzyme_out, x);
}

static double norm(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += v[i] * v[i];
  return sqrt(s);
}
typedef double (*fnorm)(const double *, int);

static double norm_truncated(const double *v, int n) {
  return ((fnorm)__enzyme_truncate_op_func((void *)norm, 64, 11, 20))(v, n);
}

int main(void) {
  volatile double vx = 0.7;
  double x = vx;
  double tol = 1e-5; /* 20 mantissa bits */

  /* Truncate, then differentiate: reverse and forward mode. */
  double t = poly_truncated(x);
  check_close("truncated value", t, poly(x), tol);
  check_close("truncated value is in the format", t, ref_round(t, 11, 20),
              0);
  check_close("reverse of truncated",
              __enzyme_autodiff((void *)poly_truncated, enzyme_out, x),
              dpoly_exact(x), tol);
  check_close("forward of truncated",
              __enzyme_fwddiff((void *)poly_truncated, x, 1.0),
              dpoly_exact(x), tol);

  double v[4] = {0.5, -1.25, 2.0, 0.3}, dv[4] = {0};
  double nv = norm(v, 4);
  __enzyme_autodiff((void *)norm_truncated, enzyme_dup, v, dv, enzyme_const,
                    4);
  for (int i = 0; i < 4; i++)
    check_close("gradient of truncated norm", dv[i], v[i] / nv, tol);

  /* Differentiate, then truncate: every operation of the derivative is
   * rounded to the format. */
  double d = ((fn1)__enzyme_truncate_op_func((void *)dpoly, 64, 11, 20))(x);
  check_close("truncated derivative", d, dpoly_exact(x), tol);
  check_close("truncated derivative is in the format", d,
              ref_round(d, 11, 20), 0);
  return check_report();
}
