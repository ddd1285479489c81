// A hand-made aligned allocator, as Eigen's (with AVX, 32-byte alignment
// is more than malloc's) and many numerical codes write it: over-allocate,
// round the address up through an integer, keep the original pointer just
// before the aligned block, free through it. The rounded address's shadow
// is at the same offset from the block's shadow (the derivative's vector
// accesses assume only a double's alignment), and the original pointer's
// shadow is kept beside it, so
// the shadow block is freed too. Was an error ("an active value is stored
// through parameter 2, which is enzyme_const"). Reverse and forward mode,
// and under AddressSanitizer (no leak, no stray access).
// f(x) = sum_i x_i^4, df/dx_i = 4 x_i^3.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O2 -fsanitize=address -fno-omit-frame-pointer %s -lm -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdint.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static void *aligned_alloc32(size_t n) {
  void *orig = malloc(n + 32);
  void *al = (void *)(((uintptr_t)orig & ~(uintptr_t)31) + 32);
  ((void **)al)[-1] = orig;
  return al;
}

static void aligned_free32(void *p) {
  if (p)
    free(((void **)p)[-1]);
}

__attribute__((noinline)) void square_into(const double *x, double *res,
                                           int n) {
  for (int i = 0; i < n; i++)
    res[i] = x[i] * x[i];
}

double f(const double *x, int n) {
  double *t = aligned_alloc32(n * sizeof(double));
  square_into(x, t, n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * t[i];
  aligned_free32(t);
  return s;
}

int main(void) {
  enum { N = 7 };
  double x[N], dx[N] = {0}, v[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.5 + 0.25 * i;
    v[i] = 1.0 - 0.125 * i;
  }
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, N);
  double dot = 0;
  for (int i = 0; i < N; i++) {
    check_close("dx", dx[i], 4 * x[i] * x[i] * x[i], 1e-13);
    dot += 4 * x[i] * x[i] * x[i] * v[i];
  }
  check_close("tangent", t, dot, 1e-13);
  return check_report();
}
