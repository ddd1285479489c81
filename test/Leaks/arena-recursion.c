// LeakSanitizer on the tape arena (plugin/Synthesis/TapeCache.h): the tapes
// of a recursive function's calls under a one-shot gradient, and their loops'
// record arrays, come from the thread's arena. Each gradient leaves no heap
// bytes behind once the arena and the tape cache are released
// (tapestry_release_tape_cache()), and makes allocations while the arena
// grows; a second gradient as deep as the first makes none at all (the
// arena's chunks and the cached record arrays are reused), where each call
// that stays a call used to malloc its tape. The derivatives match their
// analytic values.
// REQUIRES: lsan
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O0 %s -lm %tapestry_rt -o %t0 && %lsan_run %t0 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O2 %s -lm %tapestry_rt -o %t2 && %lsan_run %t2 2>&1 | FileCheck %s
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
// CHECK: ALL PASSED: 0 failure(s)
#include "Inputs/heap.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

// f(x, d) = sum_{k=1..d} sum_i 0.5^(n-1-i) x_i^2 / k as a recursion: level
// k sums over a loop (which keeps records: s is overwritten each
// iteration) and adds the level below.
double f(const double *x, int n, int d) {
  if (d == 0)
    return 0;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s = s * 0.5 + x[i] * x[i] / d;
  return s + f(x, n, d - 1);
}

// d f / d x_i = sum_k 2 x_i / k * 0.5^(n - 1 - i).
static double grad_i(const double *x, int n, int d, int i) {
  double h = 0;
  for (int k = 1; k <= d; ++k)
    h += 1.0 / k;
  return 2 * x[i] * h * pow(0.5, n - 1 - i);
}

#define N 4

static void gradient(const double *x, double *dx, int d) {
  for (int i = 0; i < N; ++i)
    dx[i] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N,
                    enzyme_const, d);
}

int main(void) {
  double x[N] = {0.5, -1.25, 2.0, 0.75}, dx[N];
  HEAP_CHECK("depth 2000", 1, gradient(x, dx, 2000));
  for (int i = 0; i < N; ++i)
    check_close("depth 2000", dx[i], grad_i(x, N, 2000, i), 1e-12);

  // Warm: the arena and the cache hold what a gradient as deep needs.
  gradient(x, dx, 2000);
  heap_allocs_ = 0;
  heap_counting_ = 1;
  gradient(x, dx, 2000);
  heap_counting_ = 0;
  check_close("allocations in a warm gradient", heap_allocs_, 0, 0);
  for (int i = 0; i < N; ++i)
    check_close("depth 2000, warm", dx[i], grad_i(x, N, 2000, i), 1e-12);

  // From an empty arena again.
  tapestry_release_tape_cache();
  HEAP_CHECK("depth 7", 1, gradient(x, dx, 7));
  for (int i = 0; i < N; ++i)
    check_close("depth 7", dx[i], grad_i(x, N, 7, i), 1e-12);
  tapestry_release_tape_cache();
  return check_report();
}
