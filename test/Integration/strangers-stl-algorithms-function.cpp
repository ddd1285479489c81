// A C++ user's loss written with the standard algorithms: std::transform
// with a lambda into a local std::vector, std::accumulate,
// std::inner_product of a vector with itself, and a std::function
// holding the final square. At -O0 the algorithms stay calls, and the
// std::function object (a local whose address goes to its own methods)
// holds pointers to its manager and invoker functions: that must not make
// the argument vectors' data pointers "maybe constant" (an argument cannot
// point into a local the function creates).
// loss(w) = (sum_i tanh(w_i x_i))^2 + 0.1 sum_i w_i^2, so
// dloss/dw_i = 2 s (1 - tanh^2(w_i x_i)) x_i + 0.2 w_i.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

double loss(const std::vector<double> &w, const std::vector<double> &x) {
  std::vector<double> t(w.size());
  std::transform(w.begin(), w.end(), x.begin(), t.begin(),
                 [](double a, double b) { return std::tanh(a * b); });
  double s = std::accumulate(t.begin(), t.end(), 0.0);
  double q = std::inner_product(w.begin(), w.end(), w.begin(), 0.0);
  std::function<double(double)> sq = [](double v) { return v * v; };
  return sq(s) + 0.1 * q;
}

int main() {
  std::vector<double> w = {0.1, -0.4, 0.7, 0.2}, dw(4, 0.0),
                      x = {1.0, 2.0, -0.5, 3.0};
  __enzyme_autodiff((void *)loss, enzyme_dup, &w, &dw, enzyme_const, &x);
  double s = 0;
  for (int i = 0; i < 4; i++)
    s += std::tanh(w[i] * x[i]);
  for (int i = 0; i < 4; i++) {
    double th = std::tanh(w[i] * x[i]);
    check_close("dloss/dw", dw[i], 2 * s * (1 - th * th) * x[i] + 0.2 * w[i],
                1e-12);
  }
  return check_report();
}
