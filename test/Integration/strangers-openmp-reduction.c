// An HPC user's program: an OpenMP parallel loop with a sum reduction in
// the differentiated function (compiled with -fopenmp, as Enzyme's users
// do), gradient of sum_i w_i exp(-x_i^2) with respect to x. Analytic.
// RUN: %clang -fopenmp -O0 %s -lm -o %t0 && env OMP_NUM_THREADS=2 %t0 | FileCheck %s
// RUN: %clang -fopenmp -O1 %s -lm -o %t1 && env OMP_NUM_THREADS=2 %t1 | FileCheck %s
// RUN: %clang -fopenmp -O2 %s -lm -o %t2 && env OMP_NUM_THREADS=2 %t2 | FileCheck %s
// RUN: %clang -fopenmp -O3 %s -lm -o %t3 && env OMP_NUM_THREADS=2 %t3 | FileCheck %s
// RUN: %clang -fopenmp -O3 -march=native -ffast-math %s -lm -o %tf && env OMP_NUM_THREADS=2 %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);

double gauss_sum(const double *x, const double *w, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += w[i] * exp(-x[i] * x[i]);
  return s;
}

int main(void) {
  enum { N = 100 };
  double x[N], dx[N] = {0}, w[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.03 * i - 1.5;
    w[i] = 1 + 0.01 * i;
  }
  __enzyme_autodiff((void *)gauss_sum, enzyme_dup, x, dx, enzyme_const, w,
                    enzyme_const, N);
  for (int i = 0; i < N; ++i)
    check_close("d/dx", dx[i], -2 * x[i] * w[i] * exp(-x[i] * x[i]), 1e-13);
  return check_report();
}
