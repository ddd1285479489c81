// LeakSanitizer and AddressSanitizer on the variable-length arrays of a
// callee that stays a call under a one-shot gradient: each array the
// forward half makes (in a loop, or on one path only) is a heap block on a
// list the reverse frees as it returns (plugin/Split/TapeLayout.cpp
// moveVariableArraysToHeap). No block is left behind, none is read after
// it is freed, and the derivatives match their analytic values:
// f = g(x, n) x0 with g = sum_r sum_i sin^2((r + 1) x_i) (r < 3), plus
// x1^2 when n > 2 (a second array, made on that path only).
// REQUIRES: lsan
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O0 %s -lm %tapestry_rt -o %t0 && %lsan_run %t0 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O2 %s -lm %tapestry_rt -o %t2 && %lsan_run %t2 2>&1 | FileCheck %s
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
// CHECK: ALL PASSED: 0 failure(s)
#include "../Integration/Inputs/check.h"
#include <math.h>
#include <tapestry/runtime.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double g(const double *x, int n) {
  double s = 0;
  for (int r = 0; r < 3; ++r) {
    double t[n];
    for (int i = 0; i < n; i++)
      t[i] = sin(x[i] * (r + 1));
    for (int i = 0; i < n; i++)
      s += t[i] * t[i];
  }
  if (n > 2) {
    double u[n];
    for (int i = 0; i < n; i++)
      u[i] = x[i] * x[i];
    s += u[1];
  }
  return s;
}

double f(const double *x, int n) { return g(x, n) * x[0]; }

int main(void) {
  for (int n = 2; n <= 3; n++) {
    double x[3] = {0.3, -0.7, 1.1}, dx[3] = {0};
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
    double G = n > 2 ? x[1] * x[1] : 0;
    for (int r = 0; r < 3; r++)
      for (int i = 0; i < n; i++)
        G += sin((r + 1) * x[i]) * sin((r + 1) * x[i]);
    char what[32];
    for (int j = 0; j < n; j++) {
      double want = (j == 0 ? G : 0) + (n > 2 && j == 1 ? 2 * x[0] * x[1] : 0);
      for (int r = 0; r < 3; r++)
        want += x[0] * (r + 1) * sin(2 * (r + 1) * x[j]);
      snprintf(what, sizeof what, "n=%d d/dx%d", n, j);
      check_close(what, dx[j], want, 1e-13);
    }
  }
  tapestry_release_tape_cache();
  return check_report();
}
