// A C++ user's robust statistic: the trimmed mean of a sample, computed by
// copying the data into a std::vector, std::sort-ing it and averaging the
// middle part. The derivative with respect to each sample is 1/m for the
// m kept values and 0 for the trimmed ones (no ties), analytic.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 -march=native -ffast-math %s -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <algorithm>
#include <vector>

extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

double trimmed_mean(const double *x, int n, int trim) {
  std::vector<double> v(x, x + n);
  std::sort(v.begin(), v.end());
  double s = 0;
  for (int i = trim; i < n - trim; ++i)
    s += v[i];
  return s / (n - 2 * trim);
}

int main() {
  const int n = 11, trim = 2;
  double x[n], dx[n] = {0};
  for (int i = 0; i < n; ++i)
    x[i] = std::sin(2.7 * i + 0.3) * (1 + 0.1 * i);
  __enzyme_autodiff((void *)trimmed_mean, enzyme_dup, x, dx, enzyme_const, n,
                    enzyme_const, trim);
  for (int i = 0; i < n; ++i) {
    int rank = 0;
    for (int j = 0; j < n; ++j)
      rank += x[j] < x[i];
    double want = rank >= trim && rank < n - trim ? 1.0 / (n - 2 * trim) : 0;
    check_close("d/dx", dx[i], want, 1e-14);
  }
  return check_report();
}
