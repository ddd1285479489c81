// Magnitude response of a second-order filter H(jw) = 1/(1 - w^2/w0^2 + j w/(Q w0))
// with std::complex<double>; loss is sum_k (|H(j w_k)| - target_k)^2 + arg term.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <complex>
#include <cmath>
extern "C" int enzyme_dup, enzyme_const, enzyme_out;
extern "C" void __enzyme_autodiff(void *, ...);

using cd = std::complex<double>;
static double loss(const double *p, const double *w, const double *target, int n) {
  double w0 = p[0], Q = p[1];
  double s = 0;
  for (int k = 0; k < n; k++) {
    cd jw(0.0, w[k]);
    cd H = 1.0 / (1.0 + jw / (Q * w0) + jw * jw / (w0 * w0));
    double m = std::abs(H) - target[k];
    s += m * m + 0.01 * std::arg(H) * std::arg(H) + 0.1 * std::norm(std::polar(1.0, w0) * H);
  }
  return s;
}

int main() {
  double w[5] = {0.1, 0.5, 1.0, 2.0, 4.0}, t[5] = {1, 1.1, 1.5, 0.3, 0.05};
  double p[2] = {1.3, 0.8}, dp[2] = {0, 0};
  __enzyme_autodiff((void *)loss, enzyme_dup, p, dp, enzyme_const, w, enzyme_const, t,
                    enzyme_const, 5);
  for (int i = 0; i < 2; i++) {
    double q[2] = {p[0], p[1]};
    double want = CENTRAL_DIFF((q[i] = t_, loss(q, w, t, 5)), p[i], 1e-6);
    check_close("dL/dp", dp[i], want, 1e-7);
  }
  return check_report();
}
