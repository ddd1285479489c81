// A work block kept in a file-scope pointer, allocated and filled with
// differentiated data by the function, read back after a call the analysis
// cannot see through, and released by a helper that stays a call (free,
// then null stored). The helper's read of the pointer follows the store in
// its caller, so it has the shadow of that store: the shadow block is
// released with the block, and nothing leaks. (A read that releases an
// owner's previous block before a new one is stored has no shadow:
// test/Leaks/global-owner-kept-block.cpp.) f(x) = sum_i x_i^3, df/dx_i =
// 3 x_i^2. Compiled with AddressSanitizer, run with leak detection.
// REQUIRES: lsan
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O0 %s -lm %tapestry_rt -o %t0 && %lsan_run %t0 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O2 %s -lm %tapestry_rt -o %t2 && %lsan_run %t2 2>&1 | FileCheck %s
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
// CHECK: ALL PASSED: 0 failure(s)
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
#include "../Integration/Inputs/check.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

static double *work;

// Calls itself, so that it stays a call in the derivative.
static void release_work(int hops) {
  if (hops > 0) {
    release_work(hops - 1);
    return;
  }
  free(work);
  work = NULL;
}

double f(const double *x, int n) {
  work = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    work[i] = x[i] * x[i];
  fflush(stdout);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += work[i] * x[i];
  release_work(2);
  return s;
}

int main(void) {
  double x[3] = {0.5, -1.5, 2.0};
  for (int call = 0; call < 3; call++) {
    double dx[3] = {0};
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 3);
    for (int i = 0; i < 3; i++)
      check_close("df/dx", dx[i], 3 * x[i] * x[i], 1e-12);
  }
  int failures = check_report();
  fflush(stdout);
  return failures;
}
