// Cumulative sums and differences with <numeric>: std::partial_sum builds a
// price path from returns, std::adjacent_difference the increments,
// std::inner_product and std::accumulate with a lambda reduce them.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <algorithm>
#include <numeric>
#include <vector>
extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

double path_stat(const std::vector<double> &ret, double s0) {
  std::vector<double> logp(ret.size()), inc(ret.size()), price(ret.size());
  std::partial_sum(ret.begin(), ret.end(), logp.begin());
  std::transform(logp.begin(), logp.end(), price.begin(),
                 [s0](double l) { return s0 * std::exp(l); });
  std::adjacent_difference(price.begin(), price.end(), inc.begin());
  double qv = std::inner_product(inc.begin(), inc.end(), inc.begin(), 0.0);
  double mx = std::accumulate(price.begin(), price.end(), 0.0,
                              [](double a, double p) { return a + std::log(p); });
  return qv + 0.1 * mx;
}

int main() {
  std::vector<double> r = {0.01, -0.02, 0.03, 0.005, -0.01, 0.02}, dr(6, 0.0);
  __enzyme_autodiff((void *)path_stat, enzyme_dup, &r, &dr, enzyme_const, 100.0);
  for (int i = 0; i < 6; i++) {
    std::vector<double> q = r;
    check_close("dret", dr[i], CENTRAL_DIFF((q[i] = t_, path_stat(q, 100.0)), r[i], 1e-7), 1e-6);
  }
  return check_report();
}
