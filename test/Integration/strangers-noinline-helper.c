// An objective split across noinline helpers: one fills a work array
// through an out-pointer, another reduces it and returns by pointer.
// RUN: %clang -O0 %s -o %t0 -lm && %t0 | FileCheck %s
// RUN: %clang -O1 %s -o %t1 -lm && %t1 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 -lm && %t2 | FileCheck %s
// RUN: %clang -O3 %s -o %t3 -lm && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
extern int enzyme_dup, enzyme_const, enzyme_out;
extern void __enzyme_autodiff(void *, ...);

__attribute__((noinline)) static void features(const double *x, int n, double *phi) {
  for (int i = 0; i < n; i++)
    phi[i] = sin(x[i]) * x[(i + 1) % n];
}
__attribute__((noinline)) static void reduce(const double *phi, int n, double *out) {
  double s = 0;
  for (int i = 0; i < n; i++) s += phi[i] * phi[i];
  *out = sqrt(s);
}
__attribute__((noinline)) double objective(const double *x, int n) {
  double phi[16], r;
  features(x, n, phi);
  reduce(phi, n, &r);
  return r + x[0] * r;
}

int main(void) {
  enum { N = 6 };
  double x[N] = {0.3, 1.1, -0.4, 0.8, 2.0, -1.3}, dx[N] = {0};
  __enzyme_autodiff((void *)objective, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double p[N];
    for (int k = 0; k < N; k++) p[k] = x[k];
    double want = CENTRAL_DIFF((p[i] = t_, objective(p, N)), x[i], 1e-6);
    check_close("d/dx", dx[i], want, 1e-7);
  }
  return check_report();
}
