// std::complex<double> arithmetic (issue 8 items 2 and 6): z*z (which clang
// lowers to an inline product plus a call to __muldc3 on its NaN path),
// complex division, std::abs, std::exp, std::norm, std::conj, real/imag, in
// reverse and forward mode, against analytic derivatives and central finite
// differences. The complex number enters as two doubles (re, im).
// std::abs and std::exp of a complex number (libm's cabs / cexp) are tested
// in cpp-complex-abs-exp.cpp.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <complex>

extern "C" int enzyme_dup, enzyme_const, enzyme_out;
typedef struct {
  double da, db;
} G2;
extern "C" G2 __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

using C = std::complex<double>;

// Re(z*z) + 2 Im(z*z) = a^2 - b^2 + 4ab
double sq(double a, double b) {
  C z(a, b);
  C w = z * z;
  return w.real() + 2 * w.imag();
}
// Im(1/z) = -b / (a^2 + b^2)
double inv(double a, double b) { return (1.0 / C(a, b)).imag(); }
// Re(z / w) for w = (b, 2a)
double quot(double a, double b) { return (C(a, b) / C(b, 2 * a)).real(); }
// a mixture: sqrt(norm(z*z*z + 3 conj(z) * z)) + norm(z) + Re(1/z)
double mixture(double a, double b) {
  C z(a, b);
  C w = z * z * z + 3.0 * std::conj(z) * z;
  w *= C(0.5, -1.5);
  return std::sqrt(std::norm(w)) + std::norm(z) + (1.0 / z).real() + std::real(w * w);
}

template <double (*f)(double, double)>
static void check2(const char *name, double a, double b,
                   double wa, double wb, double tol) {
  char what[128];
  G2 g = __enzyme_autodiff((void *)f, a, b);
  snprintf(what, sizeof what, "%s reverse d/da", name);
  check_close(what, g.da, wa, tol);
  snprintf(what, sizeof what, "%s reverse d/db", name);
  check_close(what, g.db, wb, tol);
  snprintf(what, sizeof what, "%s forward along (1, -2)", name);
  check_close(what, __enzyme_fwddiff((void *)f, enzyme_dup, a, 1.0, enzyme_dup, b, -2.0),
              wa - 2 * wb, tol);
}

int main() {
  const double TOL = 1e-12, h = 1e-6;
  double a = 0.6, b = -1.1;
  check2<sq>("z*z", a, b, 2 * a + 4 * b, -2 * b + 4 * a, TOL);
  double r2 = a * a + b * b;
  check2<inv>("1/z", a, b, 2 * a * b / (r2 * r2), -1 / r2 + 2 * b * b / (r2 * r2), TOL);
  check2<quot>("z/w", a, b, CENTRAL_DIFF(quot(t_, b), a, h), CENTRAL_DIFF(quot(a, t_), b, h),
               1e-7);
  check2<mixture>("mixture", a, b, CENTRAL_DIFF(mixture(t_, b), a, h),
         CENTRAL_DIFF(mixture(a, t_), b, h), 1e-7);
  return check_report();
}
