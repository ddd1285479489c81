// A statistics / physics user's program with the special functions C99
// libm provides beside erf: lgamma and tgamma (a Gamma-distribution
// log-likelihood and a normalising constant) and the Bessel functions
// j0, j1, y0, y1 (a cylindrical wave). Analytic derivatives:
// lgamma' = digamma, tgamma' = tgamma * digamma, j0' = -j1,
// j1'(x) = j0 - j1/x, y0' = -y1, y1'(x) = y0 - y1/x; digamma is computed
// here independently by recurrence and its asymptotic series.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

typedef struct {
  double dk, dtheta;
} G2;
extern int enzyme_out, enzyme_const, enzyme_dup;
extern G2 __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

// Log-likelihood of samples under Gamma(k, theta).
double gamma_loglik(double k, double theta, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += (k - 1) * log(x[i]) - x[i] / theta - lgamma(k) - k * log(theta);
  return s + 0.01 * tgamma(k);
}

double wave(double r) {
  return j0(r) + 0.5 * j1(r) - 0.25 * y0(r) + 0.125 * y1(r);
}

static double digamma_ref(double x) {
  double r = 0;
  while (x < 12) {
    r -= 1 / x;
    x += 1;
  }
  double f = 1 / (x * x);
  return r + log(x) - 0.5 / x -
         f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}

int main(void) {
  double x[5] = {0.7, 1.9, 2.4, 3.3, 0.5};
  double k = 2.3, theta = 1.4;
  G2 g = __enzyme_autodiff((void *)gamma_loglik, enzyme_out, k, enzyme_out,
                           theta, enzyme_const, x, enzyme_const, 5);
  double wk = 0.01 * tgamma(k) * digamma_ref(k), wt = 0;
  for (int i = 0; i < 5; ++i) {
    wk += log(x[i]) - digamma_ref(k) - log(theta);
    wt += x[i] / (theta * theta) - k / theta;
  }
  check_close("dL/dk", g.dk, wk, 1e-12);
  check_close("dL/dtheta", g.dtheta, wt, 1e-12);
  double r = 1.7;
  double want = -j1(r) + 0.5 * (j0(r) - j1(r) / r) + 0.25 * y1(r) +
                0.125 * (y0(r) - y1(r) / r);
  check_close("dwave/dr", __enzyme_fwddiff((void *)wave, r, 1.0), want,
              1e-13);
  return check_report();
}
