// A workspace from std::make_unique<double[]>, a helper returning
// std::tuple<double, double> unpacked with structured bindings, and
// std::pair accumulation: mean and variance of a transformed sample.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <memory>
#include <tuple>
#include <utility>
extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

static std::tuple<double, double> moments(const double *v, int n) {
  std::pair<double, double> acc{0.0, 0.0};
  for (int i = 0; i < n; i++) {
    acc.first += v[i];
    acc.second += v[i] * v[i];
  }
  double m = acc.first / n;
  return {m, acc.second / n - m * m};
}

double score(const double *x, int n, double a) {
  auto work = std::make_unique<double[]>(n);
  for (int i = 0; i < n; i++) work[i] = std::tanh(a * x[i]);
  auto [mean, var] = moments(work.get(), n);
  return mean * mean + std::sqrt(var + 1e-3);
}

int main() {
  const int n = 6;
  double x[n] = {0.2, -0.5, 1.1, 0.4, -0.9, 0.05}, dx[n] = {0};
  __enzyme_autodiff((void *)score, enzyme_dup, x, dx, enzyme_const, n, enzyme_const, 0.8);
  for (int i = 0; i < n; i++) {
    double p[n];
    for (int q = 0; q < n; q++) p[q] = x[q];
    check_close("dx", dx[i], CENTRAL_DIFF((p[i] = t_, score(p, n, 0.8)), x[i], 1e-6), 1e-7);
  }
  return check_report();
}
