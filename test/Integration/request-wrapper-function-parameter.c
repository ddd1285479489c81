// A helper that differentiates the function its caller passes
// (`grad(f, x)` calling `__enzyme_autodiff((void *)f, ...)`), static or
// inline, called with functions by name (probe39a). The request names a
// parameter, whose value the helper alone does not know: it was refused at
// every -O level unless the helper was always_inline. Such helpers are now
// inlined where their callers pass a function by name, as always_inline
// ones were. Expected values are analytic.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_out, enzyme_dup, enzyme_const;

typedef double (*scalar_fn)(double);
typedef double (*field_fn)(const double *, int);

static double cube(double x) { return x * x * x; }
static double wave(double x) { return sin(3 * x) * exp(-x); }

static double energy(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * (i + 1);
  return s;
}
static double coupling(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i++)
    s += x[i] * x[i + 1];
  return s;
}

static double grad(scalar_fn f, double x) {
  return __enzyme_autodiff((void *)f, enzyme_out, x);
}

static inline double tangent(scalar_fn f, double x) {
  return __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0);
}

// The function is the third parameter; the helper calls another helper.
static void gradient(const double *x, double *dx, field_fn f, int n) {
  for (int i = 0; i < n; i++)
    dx[i] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
}
static void both(const double *x, double *de, double *dc, int n) {
  gradient(x, de, energy, n);
  gradient(x, dc, coupling, n);
}

int main(void) {
  double x = 0.7;
  check_close("grad of cube", grad(cube, x), 3 * x * x, 1e-12);
  check_close("grad of wave", grad(wave, x),
              (3 * cos(3 * x) - sin(3 * x)) * exp(-x), 1e-12);
  check_close("tangent of cube", tangent(cube, x), 3 * x * x, 1e-12);
  check_close("tangent of wave", tangent(wave, x),
              (3 * cos(3 * x) - sin(3 * x)) * exp(-x), 1e-12);
  enum { N = 5 };
  double v[N] = {0.3, -1.1, 0.8, 2.0, -0.4}, de[N], dc[N];
  both(v, de, dc, N);
  for (int i = 0; i < N; i++) {
    check_close("gradient of energy", de[i], 2 * (i + 1) * v[i], 1e-12);
    double want = (i > 0 ? v[i - 1] : 0) + (i + 1 < N ? v[i + 1] : 0);
    check_close("gradient of coupling", dc[i], want, 1e-12);
  }
  return check_report();
}
