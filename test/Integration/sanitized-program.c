// A program compiled with -fsanitize=address,undefined: the checks the
// sanitizers compile into the differentiated function (llvm.objectsize,
// __ubsan_handle_* and __asan_* calls) carry no derivative and stay in the
// derivative as they are. Against the analytic gradient.
// REQUIRES: lsan
// RUN: %clang -fsanitize=address,undefined -O0 %s -lm -o %t0 && %lsan_run %t0 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address,undefined -O2 %s -lm -o %t2 && %lsan_run %t2 2>&1 | FileCheck %s
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

/* sum_i x_i^2 / (i + 1) + x_{i+1} sin(x_i), with shifts and divisions that
 * UBSan checks. */
double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    int k = (i << 1) / (i + 1);
    s += x[i] * x[i] / (i + 1) + (i + 1 < n ? x[i + 1] * sin(x[i]) : 0) * (k >= 0);
  }
  return s;
}

int main(void) {
  enum { N = 6 };
  double x[N] = {0.1, -0.4, 0.7, 1.2, -0.3, 0.5}, dx[N] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; ++i) {
    double g = 2 * x[i] / (i + 1) + (i + 1 < N ? x[i + 1] * cos(x[i]) : 0) +
               (i > 0 ? sin(x[i - 1]) : 0);
    check_close("gradient under sanitizers", dx[i], g, 1e-12);
  }
  return check_report();
}
