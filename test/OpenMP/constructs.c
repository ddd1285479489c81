// More OpenMP constructs in reverse mode at 1, 2 and 4 threads, against
// analytic derivatives: collapse(2) with a reduction, lastprivate, a
// per-thread partial-sum array indexed by omp_get_thread_num() with the
// team size from a single block, and parallel sections.
// RUN: %clang -O0 -fopenmp %s -lm -o %t0
// RUN: env OMP_NUM_THREADS=1 %t0 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 %t0 | FileCheck %s
// RUN: env OMP_NUM_THREADS=4 %t0 | FileCheck %s
// RUN: %clang -O1 -fopenmp %s -lm -o %t1 && env OMP_NUM_THREADS=2 %t1 | FileCheck %s
// RUN: %clang -O2 -fopenmp %s -lm -o %t2 && env OMP_NUM_THREADS=4 %t2 | FileCheck %s
// RUN: %clang -O3 -fopenmp %s -lm -o %t3 && env OMP_NUM_THREADS=2 %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <omp.h>
extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
#define N 12
double collapse(const double *a, int n) {
  double s = 0;
#pragma omp parallel for collapse(2) reduction(+:s)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      s += a[i * n + j] * a[j * n + i];
  return s;
}
double lastp(const double *x, int n) {
  double last = 0;
#pragma omp parallel for lastprivate(last)
  for (int i = 0; i < n; i++)
    last = x[i] * x[i];
  return last;
}
double partials(const double *x, int n) {
  double part[64] = {0};
  int nt = 1;
#pragma omp parallel
  {
    int t = omp_get_thread_num();
#pragma omp single
    nt = omp_get_num_threads();
#pragma omp for
    for (int i = 0; i < n; i++)
      part[t] += x[i] * x[i];
  }
  double s = 0;
  for (int t = 0; t < nt; t++) s += part[t];
  return s;
}
double sections(const double *x) {
  double a = 0, b = 0;
#pragma omp parallel sections
  {
#pragma omp section
    a = x[0] * x[1];
#pragma omp section
    b = sin(x[2]);
  }
  return a + b;
}
int main(void) {
  double a[N * N], da[N * N], x[N], dx[N];
  for (int i = 0; i < N * N; i++) a[i] = 0.1 * (i % 13) + 0.05, da[i] = 0;
  __enzyme_autodiff((void *)collapse, enzyme_dup, a, da, enzyme_const, N);
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++)
    check_close("collapse", da[i * N + j], 2 * a[j * N + i], 1e-12);
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.1 * i, dx[i] = 0;
  __enzyme_autodiff((void *)lastp, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("lastprivate", dx[i], i == N - 1 ? 2 * x[i] : 0, 1e-12);
  for (int i = 0; i < N; i++) dx[i] = 0;
  __enzyme_autodiff((void *)partials, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("partials", dx[i], 2 * x[i], 1e-12);
  for (int i = 0; i < N; i++) dx[i] = 0;
  __enzyme_autodiff((void *)sections, enzyme_dup, x, dx);
  check_close("sections 0", dx[0], x[1], 1e-12);
  check_close("sections 1", dx[1], x[0], 1e-12);
  check_close("sections 2", dx[2], cos(x[2]), 1e-12);
  return check_report();
}
