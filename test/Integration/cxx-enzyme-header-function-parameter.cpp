// enzyme::autodiff on a function a helper receives as a parameter (a
// function pointer, a function reference, a template parameter deduced as
// either, a forwarding reference passed on by std::forward, given a
// function, its address or a pointer variable), the way a numerical library writes a derivative helper once:
// each helper is called with functions by name, in reverse and forward
// mode. The header's wrappers take the function by reference, so at -O0
// the request reads it through references to the helper's parameter.
// (Found by probe44: refused at every -O level; the C API spelling worked.)
// Expected values are analytic:
//   kepler(E) = E - 0.3 sin E - 1.2,  kepler'(E) = 1 - 0.3 cos E,
//   logistic(x) = 1 / (1 + e^-x),      logistic' = logistic (1 - logistic).
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <enzyme/enzyme>

#include <cmath>
#include <utility>

double kepler(double E) { return E - 0.3 * std::sin(E) - 1.2; }
double logistic(double x) { return 1 / (1 + std::exp(-x)); }

static double reverseDerivative(double (*f)(double), double x) {
  return enzyme::get<0>(
      enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(f, enzyme::Active(x))));
}

static double forwardDerivative(double (&f)(double), double x) {
  return enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(
      f, enzyme::Duplicated<double>(x, 1.0)));
}

template <class F> double templateDerivative(F f, double x) {
  return enzyme::get<0>(
      enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(f, enzyme::Active(x))));
}

/// A forwarding reference, as generic C++ writes it; given a function by
/// name, F is a function reference.
template <class F> double forwardedDerivative(F &&f, double x) {
  return enzyme::get<0>(enzyme::get<0>(
      enzyme::autodiff<enzyme::Reverse>(std::forward<F>(f), enzyme::Active(x))));
}

/// A forwarding reference passed on to another helper.
template <class F> double forwardedTwice(F &&f, double x) {
  return forwardedDerivative(std::forward<F>(f), x);
}

/// Newton's method for f(x) = 0, its derivative by the helper.
static double newton(double (*f)(double), double x) {
  for (int i = 0; i < 20; ++i)
    x -= f(x) / reverseDerivative(f, x);
  return x;
}

int main() {
  const double E = 1.3, x = -0.4;
  const double s = logistic(x);
  check_close("reverse kepler'", reverseDerivative(kepler, E),
              1 - 0.3 * std::cos(E), 1e-12);
  check_close("reverse logistic'", reverseDerivative(logistic, x),
              s * (1 - s), 1e-12);
  check_close("forward kepler'", forwardDerivative(kepler, E),
              1 - 0.3 * std::cos(E), 1e-12);
  check_close("forward logistic'", forwardDerivative(logistic, x),
              s * (1 - s), 1e-12);
  check_close("template kepler'", templateDerivative(kepler, E),
              1 - 0.3 * std::cos(E), 1e-12);
  check_close("template logistic'", templateDerivative(&logistic, x),
              s * (1 - s), 1e-12);
  check_close("forwarded kepler'", forwardedDerivative(kepler, E),
              1 - 0.3 * std::cos(E), 1e-12);
  check_close("forwarded logistic'", forwardedDerivative(logistic, x),
              s * (1 - s), 1e-12);
  // Given a pointer, F is a pointer type and f refers to the caller's
  // temporary or variable: the function is read through f.
  double (*chosen)(double) = logistic;
  check_close("forwarded &kepler'", forwardedDerivative(&kepler, E),
              1 - 0.3 * std::cos(E), 1e-12);
  check_close("forwarded pointer variable", forwardedDerivative(chosen, x),
              s * (1 - s), 1e-12);
  check_close("forwarded twice &kepler'", forwardedTwice(&kepler, E),
              1 - 0.3 * std::cos(E), 1e-12);
  check_close("forwarded twice kepler'", forwardedTwice(kepler, E),
              1 - 0.3 * std::cos(E), 1e-12);
  double root = newton(kepler, 1.0);
  check_close("Kepler's equation solved", kepler(root), 0, 1e-12);
  return check_report();
}
