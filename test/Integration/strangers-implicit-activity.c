// A C user who writes no activity markers, relying on Enzyme's defaults:
// a pointer argument is followed by its shadow, an integer is constant and
// a double is active (its derivative returned). Weighted log-sum-exp of
// x scaled by a temperature: f = T log(sum_i w_i exp(x_i / T)).
// Analytic: df/dx_i = softmax_i, df/dT = f/T - sum_i softmax_i x_i / T.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

double logsumexp(const double *x, const double *w, int n, double T) {
  double m = x[0];
  for (int i = 1; i < n; ++i)
    m = x[i] > m ? x[i] : m;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w[i] * exp((x[i] - m) / T);
  return m + T * log(s);
}

int main(void) {
  enum { N = 6 };
  double x[N], dx[N] = {0}, w[N], dw[N] = {0};
  for (int i = 0; i < N; ++i) {
    x[i] = sin(1.3 * i) * 2;
    w[i] = 1.0 + 0.1 * i;
  }
  double T = 1.0;
  double dT = __enzyme_autodiff((void *)logsumexp, x, dx, w, dw, N, T);
  double m = x[0], s = 0, sx = 0;
  for (int i = 1; i < N; ++i)
    m = x[i] > m ? x[i] : m;
  for (int i = 0; i < N; ++i)
    s += w[i] * exp((x[i] - m) / T);
  double f = m + T * log(s);
  for (int i = 0; i < N; ++i) {
    double p = w[i] * exp((x[i] - m) / T) / s;
    check_close("df/dx", dx[i], p, 1e-13);
    check_close("df/dw", dw[i], T * exp((x[i] - m) / T) / s, 1e-13);
    sx += p * x[i];
  }
  check_close("df/dT", dT, (f - sx) / T, 1e-12);
  return check_report();
}
