// std::complex<double> elementary functions inside differentiated code:
// sqrt, log, sin, cos, tan, sinh, cosh, tanh, the inverse functions (asin,
// acos, atan, asinh, acosh, atanh), proj, pow(z, w) and pow(z, double)
// (libstdc++ calls the C library's csqrt, clog, casin, ..., which have no
// derivative of their own). Each objective mixes real and imaginary parts; gradients in
// reverse and forward mode are compared with central finite differences.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <enzyme/enzyme>

#include <complex>

using C = std::complex<double>;

static double mix(C w) { return w.real() + 0.7 * w.imag(); }

double f_sqrt(double a, double b) { return mix(std::sqrt(C(a, b))); }
double f_log(double a, double b) { return mix(std::log(C(a, b))); }
double f_sin(double a, double b) { return mix(std::sin(C(a, b))); }
double f_cos(double a, double b) { return mix(std::cos(C(a, b))); }
double f_sinh(double a, double b) { return mix(std::sinh(C(a, b))); }
double f_cosh(double a, double b) { return mix(std::cosh(C(a, b))); }
double f_tan(double a, double b) { return mix(std::tan(C(a, b))); }
double f_tanh(double a, double b) { return mix(std::tanh(C(a, b))); }
double f_asin(double a, double b) { return mix(std::asin(C(a, b))); }
double f_acos(double a, double b) { return mix(std::acos(C(a, b))); }
double f_atan(double a, double b) { return mix(std::atan(C(a, b))); }
double f_asinh(double a, double b) { return mix(std::asinh(C(a, b))); }
double f_acosh(double a, double b) { return mix(std::acosh(C(a, b))); }
double f_atanh(double a, double b) { return mix(std::atanh(C(a, b))); }
double f_proj(double a, double b) { return mix(std::proj(C(a, b) * C(a, b))); }
double f_pow(double a, double b) { return mix(std::pow(C(a, b), C(0.5 * b, 1.3))); }
double f_powd(double a, double b) { return mix(std::pow(C(a, b), 2.5)); }
double f_chain(double a, double b) {
  C z(a, b);
  return std::abs(std::sqrt(z) * std::log(z + 2.0) - std::exp(z) / (z * z + 1.0));
}

template <double (*F)(double, double)> void check(const char *name, double a, double b) {
  auto [da, db] = enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(F, enzyme::Active(a),
                                                                 enzyme::Active(b)));
  double ta = enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(F, enzyme::Duplicated(a, 1.0),
                                                            enzyme::Const(b)));
  const double h = 1e-6;
  double fa = (F(a + h, b) - F(a - h, b)) / (2 * h);
  double fb = (F(a, b + h) - F(a, b - h)) / (2 * h);
  char label[64];
  snprintf(label, sizeof label, "%s d/da", name);
  check_close(label, da, fa, 1e-7);
  snprintf(label, sizeof label, "%s d/db", name);
  check_close(label, db, fb, 1e-7);
  snprintf(label, sizeof label, "%s forward d/da", name);
  check_close(label, ta, fa, 1e-7);
}

int main() {
  for (double b : {0.8, -0.6}) {
    check<f_sqrt>("sqrt", 0.9, b);
    check<f_log>("log", 0.9, b);
    check<f_sin>("sin", 0.9, b);
    check<f_cos>("cos", 0.9, b);
    check<f_sinh>("sinh", 0.9, b);
    check<f_cosh>("cosh", 0.9, b);
    check<f_tan>("tan", 0.9, b);
    check<f_tanh>("tanh", 0.9, b);
    check<f_asin>("asin", 0.9, b);
    check<f_acos>("acos", 0.9, b);
    check<f_atan>("atan", 0.9, b);
    check<f_asinh>("asinh", 0.9, b);
    check<f_acosh>("acosh", 0.9, b);
    check<f_atanh>("atanh", 0.9, b);
    check<f_proj>("proj", 0.9, b);
    check<f_pow>("pow(z, w)", 0.9, b);
    check<f_powd>("pow(z, 2.5)", 0.9, b);
    check<f_chain>("chain", 0.9, b);
  }
  // sqrt's branch cut is the negative real axis: both sides of it.
  check<f_sqrt>("sqrt near the cut, above", -1.2, 0.3);
  check<f_sqrt>("sqrt near the cut, below", -1.2, -0.3);
  return check_report();
}
