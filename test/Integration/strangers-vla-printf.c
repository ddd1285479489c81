// A C user's program with a variable-length array for a scratch buffer,
// a debugging printf inside the differentiated function, a static call
// counter, and libm functions users reach for (hypot, atan2, cbrt, expm1,
// erf). Expected values are central finite differences.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);

static int calls;

double features(const double *x, int n, int verbose) {
  double tmp[n];
  calls++;
  for (int i = 0; i < n; ++i) {
    double a = x[i], b = x[(i + 1) % n];
    tmp[i] = hypot(a, b) + atan2(b, a + 2.0) + cbrt(a * a + 1.0) +
             expm1(0.3 * a) + erf(b);
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += tmp[i] * tmp[(i + 2) % n];
  if (verbose)
    printf("features: call %d, value %g\n", calls, s);
  return s;
}

int main(void) {
  enum { N = 5 };
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; ++i)
    x[i] = 0.4 * i - 0.7;
  __enzyme_autodiff((void *)features, enzyme_dup, x, dx, enzyme_const, N,
                    enzyme_const, 1);
  for (int i = 0; i < N; ++i) {
    double y[N];
    for (int j = 0; j < N; ++j)
      y[j] = x[j];
    double want = CENTRAL_DIFF((y[i] = t_, features(y, N, 0)), x[i], 1e-6);
    check_close("d/dx", dx[i], want, 1e-7);
  }
  return check_report();
}
