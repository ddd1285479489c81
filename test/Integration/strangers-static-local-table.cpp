// Quadrature weights built once in a function-local static (thread-safe
// initialisation guard) inside the function being differentiated, as
// Gauss-Legendre code often does.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <vector>
extern "C" int enzyme_dup, enzyme_const, enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);

struct Rule { std::vector<double> x, w; };
static Rule make_rule() {
  double a = std::sqrt(3.0 / 5.0);
  return Rule{{-a, 0.0, a}, {5.0 / 9, 8.0 / 9, 5.0 / 9}};
}

// integral over [0, L] of exp(-k t) * t^2 in 4 panels of 3-point Gauss
double integral(double k, double L) {
  static const Rule rule = make_rule();
  const int panels = 4;
  double h = L / panels, s = 0;
  for (int p = 0; p < panels; p++) {
    double mid = (p + 0.5) * h;
    for (size_t q = 0; q < rule.x.size(); q++) {
      double t = mid + 0.5 * h * rule.x[q];
      s += 0.5 * h * rule.w[q] * std::exp(-k * t) * t * t;
    }
  }
  return s;
}

int main() {
  double k = 0.7, L = 2.5;
  double dk = __enzyme_autodiff((void *)integral, enzyme_out, k, enzyme_const, L);
  check_close("dk", dk, CENTRAL_DIFF(integral(t_, L), k, 1e-6), 1e-8);
  double dL = __enzyme_autodiff((void *)integral, enzyme_const, k, enzyme_out, L);
  check_close("dL", dL, CENTRAL_DIFF(integral(k, t_), L, 1e-6), 1e-8);
  // the quadrature is close to exact: d/dL = exp(-kL) L^2
  check_close("dL exact", dL, std::exp(-k * L) * L * L, 1e-4);
  return check_report();
}
