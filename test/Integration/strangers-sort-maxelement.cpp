// A robust loss: the sum of the k largest squared residuals (std::sort with a
// comparator lambda), plus the largest absolute residual (std::max_element)
// and a clipped term with std::min/std::max.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <algorithm>
#include <cmath>
#include <vector>
extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

double topk_loss(const double *w, const double *x, const double *y, int n, int k) {
  std::vector<double> r2(n), ar(n);
  for (int i = 0; i < n; ++i) {
    double r = w[0] + w[1] * x[i] - y[i];
    r2[i] = r * r;
    ar[i] = std::fabs(r);
  }
  std::sort(r2.begin(), r2.end(), [](double a, double b) { return a > b; });
  double s = 0;
  for (int i = 0; i < k; ++i) s += r2[i];
  s += *std::max_element(ar.begin(), ar.end());
  s += std::min(1.0, std::max(w[0], -1.0)) * 0.5;
  return s;
}

int main() {
  const int n = 7;
  double x[n], y[n];
  for (int i = 0; i < n; i++) { x[i] = 0.5 * i; y[i] = 1 + 0.8 * x[i] + 0.3 * std::sin(3.0 * i); }
  double w[2] = {0.7, 0.9}, dw[2] = {0, 0};
  __enzyme_autodiff((void *)topk_loss, enzyme_dup, w, dw, enzyme_const, x,
                    enzyme_const, y, enzyme_const, n, enzyme_const, 3);
  for (int j = 0; j < 2; j++) {
    double q[2] = {w[0], w[1]};
    double want = CENTRAL_DIFF((q[j] = t_, topk_loss(q, x, y, n, 3)), w[j], 1e-7);
    check_close("dL/dw", dw[j], want, 1e-6);
  }
  return check_report();
}
