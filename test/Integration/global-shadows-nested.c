// Nested derivatives of code that writes a global: the inner derivative
// keeps the global's derivative in an implicit shadow, which the outer
// derivative used too, as the tangent or adjoint of the global itself
// (probe22a W1: forward over reverse of f = G x with G = x^2 gave f'' = 20
// for 12); where the inner shadow received active values the outer one
// was refused with a message naming 'G.tapestry.shadow' (R2). The outer
// derivative now uses shadows of its nesting depth, and shadows of the
// inner one's. Forward and reverse over reverse, forward and reverse over
// forward, batched forward over reverse, a parameter passed in a global,
// and a static workspace's Hessian-vector product; expected derivatives
// are analytic.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>
#include <string.h>

extern int enzyme_out, enzyme_const, enzyme_dup, enzyme_dupnoneed,
    enzyme_width;
double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);
void __enzyme_autodiff_v(void *, ...);
void __enzyme_fwddiff_v(void *, ...);
typedef struct {
  double a, b;
} T2;
T2 __enzyme_fwddiff2(void *, ...);

double G; // a value the objective leaves in a global
double f(double x) {
  G = x * x;
  return G * sin(x);
} // x^2 sin x
static double d1(double x) { return 2 * x * sin(x) + x * x * cos(x); }
static double d2(double x) {
  return 2 * sin(x) + 4 * x * cos(x) - x * x * sin(x);
}
double grad_f(double x) { return __enzyme_autodiff((void *)f, enzyme_out, x); }
double tan_f(double x) { return __enzyme_fwddiff((void *)f, x, 1.0); }

double k; // a parameter the caller passes in a global
double h(double x) { return k * x * x * x; }
double grad_h(double x, double kk) {
  k = kk;
  return __enzyme_autodiff((void *)h, enzyme_out, x); // 3 k x^2
}

// s = sum_{interior i} (w_{i-1} - 2 w_i + w_{i+1} + w_i y_i), w_i = y_i^2
double smooth(const double *y, int n) {
  static double w[16];
  for (int i = 0; i < n; i++)
    w[i] = y[i] * y[i];
  double s = 0;
  for (int i = 1; i + 1 < n; i++)
    s += w[i - 1] - 2 * w[i] + w[i + 1] + w[i] * y[i];
  return s;
}
void grad_smooth(const double *y, double *g, int n) {
  memset(g, 0, n * sizeof(double));
  __enzyme_autodiff_v((void *)smooth, enzyme_dup, y, g, enzyme_const, n);
}

int main(void) {
  for (double x = 0.5; x < 3; x += 1.1) {
    check_close("gradient", grad_f(x), d1(x), 1e-12);
    check_close("forward over reverse", __enzyme_fwddiff((void *)grad_f, x, 1.0),
                d2(x), 1e-12);
    check_close("reverse over reverse",
                __enzyme_autodiff((void *)grad_f, enzyme_out, x), d2(x), 1e-12);
    check_close("forward over forward", __enzyme_fwddiff((void *)tan_f, x, 1.0),
                d2(x), 1e-12);
    check_close("reverse over forward",
                __enzyme_autodiff((void *)tan_f, enzyme_out, x), d2(x), 1e-12);
    T2 b = __enzyme_fwddiff2((void *)grad_f, enzyme_width, 2, x, 1.0, 2.0);
    check_close("batch forward over reverse 0", b.a, d2(x), 1e-12);
    check_close("batch forward over reverse 1", b.b, 2 * d2(x), 1e-12);
    check_close("d/dk of the gradient",
                __enzyme_autodiff((void *)grad_h, enzyme_const, x, enzyme_out,
                                  1.5),
                3 * x * x, 1e-12);
    check_close("d/dx of the gradient",
                __enzyme_autodiff((void *)grad_h, enzyme_out, x, enzyme_const,
                                  1.5),
                6 * 1.5 * x, 1e-12);
  }
  enum { N = 6 };
  double y[N] = {0.1, 0.5, -0.3, 0.8, 1.2, -0.7}, e[N] = {0, 0, 1, 0, 0, 0};
  double c[N] = {0}, g[N], hv[N];
  for (int i = 1; i + 1 < N; i++) {
    c[i - 1] += 1;
    c[i] -= 2;
    c[i + 1] += 1;
  }
  __enzyme_fwddiff_v((void *)grad_smooth, enzyme_dup, y, e, enzyme_dupnoneed, g,
                     hv, enzyme_const, N);
  for (int q = 0; q < N; q++)
    check_close("Hessian-vector", hv[q], q == 2 ? 2 * c[2] + 6 * y[2] : 0,
                1e-12);
  return check_report();
}
