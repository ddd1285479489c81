// C library functions Enzyme differentiates by name: aligned_alloc and
// posix_memalign as allocations (the shadow block allocated the same way,
// zeroed, and freed with the primal block), and the derivative rules of
// frexp, modf, ldexp, scalbn, scalbln (double and float). Reverse mode
// against analytic derivatives and central finite differences, forward
// against reverse, at -O0..-O3.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

/* Squares x into an aligned scratch buffer, sums sin of it. */
__attribute__((noinline)) double aligned_sum(const double *x, int n) {
  double *a = aligned_alloc(64, 64 * ((n * sizeof(double) + 63) / 64));
  double *b;
  if (posix_memalign((void **)&b, 32, n * sizeof(double)) != 0)
    return 0;
  for (int i = 0; i < n; i++) {
    a[i] = x[i] * x[i];
    b[i] = sin(a[i]) + x[i];
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += b[i] * a[i];
  free(a);
  free(b);
  return s;
}
/* d/dx_i of sum (sin(x_i^2) + x_i) x_i^2 */
static double aligned_sum_d(double x) {
  double a = x * x;
  return (2 * x * cos(a) + 1) * a + (sin(a) + x) * 2 * x;
}

__attribute__((noinline)) double frexp_modf(double x) {
  int e;
  double m = frexp(x, &e), ip;
  double f = modf(3.0 * x, &ip);
  return m * m + f * ip + ldexp(x, 3) + scalbn(x * x, -2) + scalbln(x, 1L) +
         e;
}
/* m = x 2^-e (e fixed nearby), f = 3x - ip (ip fixed) */
static double frexp_modf_d(double x) {
  int e;
  double m = frexp(x, &e), ip;
  modf(3.0 * x, &ip);
  return 2 * m * ldexp(1.0, -e) + 3 * ip + 8 + 2 * x / 4 + 2;
}

__attribute__((noinline)) float frexp_modf_f(float x) {
  int e;
  float m = frexpf(x, &e), ip;
  float f = modff(x * 2.0f, &ip);
  return m * 3.0f + f * f + ldexpf(x, -1) + scalbnf(x, 2);
}

/* modf's integer part stored over an active value: its derivative is 0. */
__attribute__((noinline)) double modf_overwrite(double x, double *out) {
  out[0] = x * x;            /* active, then overwritten by modf */
  double f = modf(x, out);   /* out[0] = trunc(x) */
  return f + out[0] * 5.0;   /* d/dx = 1 */
}

int main(void) {
  double x[5] = {0.3, -0.7, 1.1, 0.05, -1.4}, dx[5] = {0};
  __enzyme_autodiff((void *)aligned_sum, enzyme_dup, x, dx, enzyme_const, 5);
  for (int i = 0; i < 5; i++) {
    check_close("aligned_sum: reverse", dx[i], aligned_sum_d(x[i]), 1e-12);
    double t[5] = {0};
    t[i] = 1;
    check_close("aligned_sum: forward",
                __enzyme_fwddiff((void *)aligned_sum, enzyme_dup, x, t,
                                 enzyme_const, 5),
                aligned_sum_d(x[i]), 1e-12);
  }
  double pts[] = {0.3, -1.7, 2.6, 5.2, -0.45};
  for (int i = 0; i < 5; i++) {
    double p = pts[i];
    double g = __enzyme_autodiff((void *)frexp_modf, p);
    check_close("frexp_modf: reverse", g, frexp_modf_d(p), 1e-12);
    check_close("frexp_modf: finite difference", g,
                CENTRAL_DIFF(frexp_modf(t_), p, 1e-7), 1e-6);
    check_close("frexp_modf: forward",
                __enzyme_fwddiff((void *)frexp_modf, p, 1.0), g, 1e-12);
    float pf = (float)p, gf;
    gf = ((float (*)(void *, ...))__enzyme_autodiff)((void *)frexp_modf_f, pf);
    int e;
    frexpf(pf, &e);
    float ipf;
    float ff = modff(pf * 2.0f, &ipf);
    check_close("frexp_modf_f: reverse", gf,
                3.0 * ldexp(1.0, -e) + 2 * ff * 2 + 0.5 + 4, 1e-5);
    double out[1], dout[1] = {0};
    check_close("modf_overwrite: reverse",
                __enzyme_autodiff((void *)modf_overwrite, p, enzyme_dup, out,
                                  dout),
                1.0, 1e-12);
    dout[0] = 0;
    check_close("modf_overwrite: forward",
                __enzyme_fwddiff((void *)modf_overwrite, p, 1.0, enzyme_dup,
                                 out, dout),
                1.0, 1e-12);
    check_close("modf_overwrite: forward shadow of out", dout[0], 0.0, 0);
  }
  return check_report();
}
