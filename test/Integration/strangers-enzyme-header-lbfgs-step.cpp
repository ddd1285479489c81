// A C++ user writing with Enzyme's own header <enzyme/enzyme>: the
// Rosenbrock function in N dimensions over a std::vector<double>, its
// gradient by enzyme::autodiff<enzyme::Reverse> with Duplicated of the
// vector's data, and a directional derivative by enzyme::autodiff
// <enzyme::Forward>; a few steps of gradient descent use the gradient.
// Analytic gradient and directional derivative.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 -march=native -ffast-math %s -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <enzyme/enzyme>
#include <vector>

double rosenbrock(const double *x, int n) {
  double f = 0;
  for (int i = 0; i + 1 < n; ++i) {
    double a = x[i + 1] - x[i] * x[i], b = 1 - x[i];
    f += 100 * a * a + b * b;
  }
  return f;
}

static std::vector<double> analytic(const std::vector<double> &x) {
  int n = (int)x.size();
  std::vector<double> g(n, 0.0);
  for (int i = 0; i + 1 < n; ++i) {
    double a = x[i + 1] - x[i] * x[i];
    g[i] += -400 * a * x[i] - 2 * (1 - x[i]);
    g[i + 1] += 200 * a;
  }
  return g;
}

int main() {
  int n = 8;
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = -0.5 + 0.2 * i;
  for (int step = 0; step < 3; ++step) {
    std::vector<double> g(n, 0.0);
    enzyme::autodiff<enzyme::Reverse>(
        rosenbrock, enzyme::Duplicated<double *>(x.data(), g.data()),
        enzyme::Const<int>(n));
    std::vector<double> want = analytic(x);
    for (int i = 0; i < n; ++i)
      check_close("grad", g[i], want[i], 1e-12);
    std::vector<double> dir(n);
    double dd = 0;
    for (int i = 0; i < n; ++i) {
      dir[i] = std::cos(1.0 + i + step);
      dd += want[i] * dir[i];
    }
    auto t = enzyme::autodiff<enzyme::Forward>(
        rosenbrock, enzyme::Duplicated<double *>(x.data(), dir.data()),
        enzyme::Const<int>(n));
    check_close("directional", enzyme::get<0>(t), dd, 1e-12);
    for (int i = 0; i < n; ++i)
      x[i] -= 1e-3 * g[i];
  }
  return check_report();
}
