// Least-squares residual with std::valarray arithmetic.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <valarray>
#include <cmath>
extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

double loss(const std::valarray<double> &w, const std::valarray<double> &t) {
  std::valarray<double> pred = w * w + 0.5 * w;
  std::valarray<double> r = pred - t;
  std::valarray<double> e = std::exp(-0.1 * r * r);
  return (r * r).sum() + e.sum();
}

int main() {
  const int n = 6;
  std::valarray<double> w(n), dw(0.0, n), t(n);
  for (int i = 0; i < n; i++) { w[i] = 0.2 * i - 0.4; t[i] = std::cos(i); }
  __enzyme_autodiff((void *)loss, enzyme_dup, &w, &dw, enzyme_const, &t);
  for (int i = 0; i < n; i++) {
    double r = w[i] * w[i] + 0.5 * w[i] - t[i];
    double want = (2 * r - 0.2 * r * std::exp(-0.1 * r * r)) * (2 * w[i] + 0.5);
    check_close("dL/dw", dw[i], want, 1e-10);
  }
  return check_report();
}
