// A numerical-analysis user's C++ program studying round-off with Enzyme's
// truncation entry points, declared as Enzyme's own tests declare them
// (return type the function pointer type, parameters `...` only):
//   extern sum_fn __enzyme_truncate_op_func_sum(...);
// Naive and Kahan-compensated sums of an array are run in 64-to-32 op mode
// (every operation rounded to float), in mem mode on values converted with
// __enzyme_truncate_mem_value, and differentiated after truncation with
// __enzyme_autodiff. Expected: bit-for-bit the same sums written in float
// by hand (additions only, so no contraction is involved), the
// compensated sum closer to the double sum than the naive one, and the
// gradient of a truncated sum of squares 2 x_i (to float precision).
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx_enzyme -std=c++17 -O2 %s -S -emit-llvm -o - | lli - | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

#define N 2000

typedef double (*sum_fn)(const double *, int);
extern sum_fn __enzyme_truncate_op_func_sum(...);
extern sum_fn __enzyme_truncate_mem_func_sum(...);
extern double __enzyme_truncate_mem_value(...);
extern double __enzyme_expand_mem_value(...);
extern void __enzyme_autodiff(...);
extern int enzyme_dup, enzyme_const;

double naive_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

double kahan_sum(const double *x, int n) {
  double s = 0, c = 0;
  for (int i = 0; i < n; i++) {
    double y = x[i] - c;
    double t = s + y;
    c = (t - s) - y;
    s = t;
  }
  return s;
}

double squares(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double sq = x[i] * x[i];
    s += sq;
  }
  return s;
}

static float naive_f(const float *x, int n) {
  float s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

static float kahan_f(const float *x, int n) {
  float s = 0, c = 0;
  for (int i = 0; i < n; i++) {
    float y = x[i] - c;
    float t = s + y;
    c = (t - s) - y;
    s = t;
  }
  return s;
}

static int same(double a, double b) { return a == b; }

int main() {
  static double x[N], xm[N];
  static float xf[N];
  for (int i = 0; i < N; i++) {
    x[i] = 1.0 / ((i + 1.0) * (i + 1.0)) + 1e-3 * sin(i);
    xf[i] = (float)x[i];
  }
  double exact = naive_sum(x, N);

  sum_fn naive32 = __enzyme_truncate_op_func_sum(naive_sum, 64, 32);
  sum_fn kahan32 = __enzyme_truncate_op_func_sum(kahan_sum, 64, 32);
  double n32 = naive32(x, N), k32 = kahan32(x, N);
  check_close("op-mode naive sum is float's", same(n32, naive_f(xf, N)), 1, 0);
  check_close("op-mode Kahan sum is float's", same(k32, kahan_f(xf, N)), 1, 0);
  printf("double %.17g naive32 %.17g kahan32 %.17g\n", exact, n32, k32);
  check_close("Kahan closer than naive",
              fabs(k32 - exact) < fabs(n32 - exact), 1, 0);

  for (int i = 0; i < N; i++)
    xm[i] = __enzyme_truncate_mem_value(x[i], 64, 32);
  sum_fn kahan_mem = __enzyme_truncate_mem_func_sum(kahan_sum, 64, 32);
  double km = __enzyme_expand_mem_value(kahan_mem(xm, N), 64, 32);
  check_close("mem-mode Kahan sum is float's", same(km, kahan_f(xf, N)), 1,
              0);

  /* Gradient of the truncated sum of squares. */
  static double dx[N];
  sum_fn sq32 = __enzyme_truncate_op_func_sum(squares, 64, 32);
  __enzyme_autodiff((void *)sq32, enzyme_dup, x, dx, enzyme_const, N);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += !(fabs(dx[i] - 2 * x[i]) <= 1e-6 * fabs(2 * x[i]));
  check_close("truncated gradient entries off by more than float eps", bad, 0,
              0);
  return check_report();
}
