// A C user's program that accumulates into a global inside the
// differentiated function (a running total used as the objective, reset at
// the start), and a global scratch array of intermediate values. Both are
// written with active data. Gradient of sum_i x_i^2 w_i with w global.
// Analytic: 2 x_i w_i.
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

double total;
double scratch[8];
double w[8] = {1, 2, 3, 4, 5, 6, 7, 8};

double objective(const double *x, int n) {
  total = 0;
  for (int i = 0; i < n; ++i)
    scratch[i] = x[i] * x[i];
  for (int i = 0; i < n; ++i)
    total += scratch[i] * w[i];
  return total;
}

int main(void) {
  double x[8], dx[8] = {0};
  for (int i = 0; i < 8; ++i)
    x[i] = 0.25 * i - 1;
  __enzyme_autodiff((void *)objective, enzyme_dup, x, dx, enzyme_const, 8);
  for (int i = 0; i < 8; ++i)
    check_close("d/dx", dx[i], 2 * x[i] * w[i], 1e-14);
  return check_report();
}
