// std::abs and std::exp of a std::complex<double> (issue 8 item 2): libstdc++
// lowers them to libm's cabs and cexp, which the plugin rewrites as hypot and
// exp/cos/sin before differentiating. Expected values are analytic
// derivatives and central finite differences.
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

// |z|
double absz(double a, double b) { return std::abs(C(a, b)); }
// Re(exp(z)) - Im(exp(z)) = e^a (cos b - sin b)
double expz(double a, double b) {
  C e = std::exp(C(a, b));
  return e.real() - e.imag();
}
// a mixture: |z*z + exp(z) * conj(z)| + norm(z) + Re(1/z)
double mixture(double a, double b) {
  C z(a, b);
  C w = z * z + std::exp(z) * std::conj(z);
  return std::abs(w) + std::norm(z) + (1.0 / z).real();
}

template <double (*f)(double, double)>
static void check2(const char *name, double a, double b, double wa, double wb, double tol) {
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
  double r = std::hypot(a, b);
  check2<absz>("abs", a, b, a / r, b / r, TOL);
  double e = std::exp(a);
  check2<expz>("exp", a, b, e * (std::cos(b) - std::sin(b)), e * (-std::sin(b) - std::cos(b)),
               TOL);
  check2<mixture>("mixture", a, b, CENTRAL_DIFF(mixture(t_, b), a, h),
                  CENTRAL_DIFF(mixture(a, t_), b, h), 1e-7);
  return check_report();
}
