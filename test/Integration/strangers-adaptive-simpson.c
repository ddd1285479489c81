// A numerical-integration user's program: recursive adaptive Simpson
// quadrature (the textbook version: split the interval while the two
// halves disagree with the whole by more than 15 eps, Richardson-correct
// the accepted panels) of f(x) = exp(-a x^2) cos(b x) + c x over [0, L],
// the integrand reached through a function pointer with a parameter
// block. Gradient with respect to a, b, c (the parameter block, enzyme_dup)
// and the upper limit L (enzyme_out).
// Expected, by differentiating under the integral sign:
//   dI/da = int -x^2 exp(-a x^2) cos(b x),  dI/db = int -x exp(-a x^2)
//   sin(b x),  dI/dc = L^2/2,  dI/dL = f(L);
// the first two by a composite Simpson rule with 4000 panels here. The
// adaptive rule's mesh is fixed by comparisons, so its derivative differs
// from these by about the quadrature tolerance.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);

typedef double (*integrand)(double x, const double *par);

static double gauss_wave(double x, const double *par) {
  return exp(-par[0] * x * x) * cos(par[1] * x) + par[2] * x;
}

static double simpson(integrand f, const double *par, double a, double b,
                      double fa, double fm, double fb) {
  return (b - a) / 6.0 * (fa + 4.0 * fm + fb);
}

static double adapt(integrand f, const double *par, double a, double b,
                    double fa, double fm, double fb, double whole, double eps,
                    int depth) {
  double m = 0.5 * (a + b);
  double lm = 0.5 * (a + m), rm = 0.5 * (m + b);
  double flm = f(lm, par), frm = f(rm, par);
  double left = simpson(f, par, a, m, fa, flm, fm);
  double right = simpson(f, par, m, b, fm, frm, fb);
  double diff = left + right - whole;
  if (depth <= 0 || fabs(diff) <= 15.0 * eps)
    return left + right + diff / 15.0;
  return adapt(f, par, a, m, fa, flm, fm, left, 0.5 * eps, depth - 1) +
         adapt(f, par, m, b, fm, frm, fb, right, 0.5 * eps, depth - 1);
}

double integrate(const double *par, double L) {
  integrand f = gauss_wave;
  double fa = f(0.0, par), fm = f(0.5 * L, par), fb = f(L, par);
  double whole = simpson(f, par, 0.0, L, fa, fm, fb);
  return adapt(f, par, 0.0, L, fa, fm, fb, whole, 1e-11, 40);
}

static double ref_da(double x, double a, double b) {
  return -x * x * exp(-a * x * x) * cos(b * x);
}
static double ref_db(double x, double a, double b) {
  return -x * exp(-a * x * x) * sin(b * x);
}

static double composite(double (*g)(double, double, double), double a,
                        double b, double L) {
  const int n = 4000;
  double h = L / n, s = g(0, a, b) + g(L, a, b);
  for (int i = 1; i < n; ++i)
    s += (i % 2 ? 4.0 : 2.0) * g(i * h, a, b);
  return s * h / 3.0;
}

int main(void) {
  const double cases[2][4] = {{0.8, 3.0, 0.25, 2.5}, {2.5, 7.5, -1.0, 1.7}};
  for (int k = 0; k < 2; ++k) {
    double par[3] = {cases[k][0], cases[k][1], cases[k][2]};
    double dpar[3] = {0, 0, 0};
    double L = cases[k][3];
    double dL = __enzyme_autodiff((void *)integrate, enzyme_dup, par, dpar,
                                  enzyme_out, L);
    double a = par[0], b = par[1], c = par[2];
    check_close("dI/da", dpar[0], composite(ref_da, a, b, L), 1e-8);
    check_close("dI/db", dpar[1], composite(ref_db, a, b, L), 1e-8);
    check_close("dI/dc", dpar[2], 0.5 * L * L, 1e-10);
    check_close("dI/dL", dL, exp(-a * L * L) * cos(b * L) + c * L, 1e-10);
  }
  return check_report();
}
