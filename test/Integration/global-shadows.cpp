// Globals written with derivatives in C++: a namespace-scope std::array
// filled through operator[] and a static data member, read back by the
// caller. Both get shadows; the gradient is checked against central finite
// differences.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <array>
#include <cmath>
#include <enzyme/enzyme>

namespace model {
std::array<double, 4> state;
struct Cache {
  static double last_norm;
};
double Cache::last_norm = 0;

void update(const double *x) {
  for (int i = 0; i < 4; ++i)
    state[i] = std::exp(0.5 * x[i]);
  double s = 0;
  for (double v : state)
    s += v * v;
  Cache::last_norm = std::sqrt(s);
}

double objective(const double *x) {
  update(x);
  return Cache::last_norm * state[1];
}
} // namespace model

int main() {
  double x[4] = {0.1, -0.3, 0.7, 0.2}, dx[4] = {0};
  enzyme::autodiff<enzyme::Reverse>(
      model::objective, enzyme::Duplicated<const double *>(x, dx));
  for (int k = 0; k < 4; ++k) {
    double a[4], b[4], h = 1e-6;
    for (int i = 0; i < 4; ++i)
      a[i] = b[i] = x[i];
    a[k] += h;
    b[k] -= h;
    double fd = (model::objective(a) - model::objective(b)) / (2 * h);
    check_close("d objective / d x_k", dx[k], fd, 1e-7);
  }
  return check_report();
}
