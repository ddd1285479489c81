// LeakSanitizer, forward over reverse (a Hessian-vector product) through a
// callee that stays a call at -O0 (noinline there) and allocates a block
// in each iteration of a loop: the gradient keeps the callee's tape, which
// owns its loop blocks through a list, and the outer forward derivative
// differentiates that code too. g = sum_i sin(x_i) x_i^2 + x_0 x_1; H v
// for v = e_0: (-sin(x0) x0^2 + 4 x0 cos(x0) + 2 sin(x0), 1, 0).
// REQUIRES: lsan
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O0 %s -lm -o %t0 && %lsan_run %t0 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O2 %s -lm -o %t2 && %lsan_run %t2 2>&1 | FileCheck %s
// CHECK-NOT: LeakSanitizer
// CHECK-NOT: AddressSanitizer
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) double h(const double *x, int n) {
  double acc = 0;
  for (int i = 0; i < n; i++) {
    double *t = (double *)malloc(2 * sizeof(double));
    t[0] = sin(x[i]);
    t[1] = x[i] * x[i];
    acc += t[0] * t[1];
    free(t);
  }
  return acc;
}

double g(const double *x, int n) { return h(x, n) + x[0] * x[1]; }

void grad(const double *x, double *dx, int n) {
  for (int i = 0; i < n; i++)
    dx[i] = 0;
  __enzyme_autodiff((void *)g, enzyme_dup, x, dx, enzyme_const, n);
}

int main(void) {
  double x[3] = {0.3, -0.4, 0.8}, v[3] = {1, 0, 0}, dx[3], hv[3];
  __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, dx, hv,
                   enzyme_const, 3);
  double x0 = x[0];
  check_close("Hv[0]", hv[0],
              -sin(x0) * x0 * x0 + 4 * x0 * cos(x0) + 2 * sin(x0), 1e-13);
  check_close("Hv[1]", hv[1], 1, 1e-13);
  check_close("Hv[2]", hv[2], 0, 1e-13);
  check_close("gradient[2]", dx[2],
              cos(x[2]) * x[2] * x[2] + 2 * x[2] * sin(x[2]), 1e-13);
  return check_report();
}
