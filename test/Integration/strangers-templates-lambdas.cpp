// A C++ user's program: a generic Simpson-rule integrator template taking
// any callable, called with lambdas that capture the parameters by
// reference and by value, and the integral's derivative with respect to
// the parameters. int_0^1 exp(-a x^2) cos(b x) dx: the derivatives are
// the integrals of -x^2 exp(-a x^2) cos(b x) and -x exp(-a x^2) sin(b x)
// (by the same Simpson rule, so they agree to rounding).
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 -march=native -ffast-math %s -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>

extern int enzyme_out, enzyme_const;
struct Grad2 {
  double da, db;
};
template <typename Ret, typename... Args>
extern Ret __enzyme_autodiff(void *, Args...);

template <typename F> double simpson(F &&f, double lo, double hi, int n) {
  double h = (hi - lo) / n, s = f(lo) + f(hi);
  for (int i = 1; i < n; ++i)
    s += (i % 2 ? 4.0 : 2.0) * f(lo + i * h);
  return s * h / 3;
}

double damped_integral(double a, double b) {
  auto weight = [a](double x) { return std::exp(-a * x * x); };
  auto integrand = [&](double x) { return weight(x) * std::cos(b * x); };
  return simpson(integrand, 0.0, 1.0, 40);
}

int main() {
  double a = 0.8, b = 2.1;
  Grad2 g = __enzyme_autodiff<Grad2>((void *)damped_integral, enzyme_out, a,
                                     enzyme_out, b);
  double wa = simpson(
      [&](double x) { return -x * x * std::exp(-a * x * x) * std::cos(b * x); },
      0.0, 1.0, 40);
  double wb = simpson(
      [&](double x) { return -x * std::exp(-a * x * x) * std::sin(b * x); },
      0.0, 1.0, 40);
  check_close("dI/da", g.da, wa, 1e-12);
  check_close("dI/db", g.db, wb, 1e-12);
  return check_report();
}
