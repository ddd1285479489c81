// A C++ user's program building std::vector<double> inside the
// differentiated function: intermediate values pushed back one by one
// (the vector grows and reallocates), a helper returning a vector by
// value, and std::inner_product and std::accumulate over them. Gradient
// of f(x) = sum_i w_i * (x_i^2 + x_{i+1}) with w_i = i+1, plus 0.5 *
// sum x_i: analytic.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 -march=native -ffast-math %s -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <numeric>
#include <vector>

extern int enzyme_dup, enzyme_const;
template <typename Ret, typename... Args> Ret __enzyme_autodiff(Args...);

static std::vector<double> weights(std::size_t n) {
  std::vector<double> w;
  for (std::size_t i = 0; i < n; ++i)
    w.push_back(double(i + 1));
  return w;
}

double objective(const std::vector<double> &x) {
  std::vector<double> terms;
  for (std::size_t i = 0; i + 1 < x.size(); ++i)
    terms.push_back(x[i] * x[i] + x[i + 1]);
  std::vector<double> w = weights(terms.size());
  double s = std::inner_product(terms.begin(), terms.end(), w.begin(), 0.0);
  return s + 0.5 * std::accumulate(x.begin(), x.end(), 0.0);
}

int main() {
  std::vector<double> x(11), dx(11, 0.0);
  for (int i = 0; i < 11; ++i)
    x[i] = 0.1 * i - 0.4;
  __enzyme_autodiff<void>((void *)objective, enzyme_dup, &x, &dx);
  for (int i = 0; i < 11; ++i) {
    double want = 0.5;
    if (i + 1 < 11)
      want += (i + 1) * 2 * x[i];
    if (i >= 1)
      want += i; // w_{i-1} = i
    check_close("df/dx", dx[i], want, 1e-13);
  }
  return check_report();
}
