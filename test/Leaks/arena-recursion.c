// LeakSanitizer on the tape arena (plugin/Synthesis/TapeCache.h): the tapes
// of a recursive function's calls under a one-shot gradient, and their loops'
// record arrays, come from the thread's arena. Each gradient leaves no heap
// bytes behind once the arena and the tape cache are released
// (tapestry_release_tape_cache()), and makes allocations while the arena
// grows; a second gradient as deep as the first makes none at all (the
// arena's chunks and the cached record arrays are reused), where each call
// that stays a call used to malloc its tape. The derivatives match their
// analytic values. A recursion whose first tape is larger than the arena's
// first chunk leaves nothing behind either.
// REQUIRES: lsan
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O0 %s -lm %tapestry_rt -o %t0 && %lsan_run %t0 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O2 %s -lm %tapestry_rt -o %t2 && %lsan_run %t2 2>&1 | FileCheck %s
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
// CHECK: ALL PASSED: 0 failure(s)
#include "Inputs/heap.h"

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

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

// b(x, d) = d sum_{i<BIG} (x i)^2 / BIG^3, each level through a stack
// array that its split keeps on its tape: a tape larger than the arena's
// first chunk (64 KiB), so the first one of a call needs a larger chunk.
#define BIG 9000
double b(double x, int d) {
  if (d == 0)
    return 0;
  double t[BIG], s = 0;
  for (int i = 0; i < BIG; ++i)
    t[i] = x * i;
  for (int i = 0; i < BIG; ++i)
    s += t[i] * t[i] / ((double)BIG * BIG * BIG);
  return s + b(x, d - 1);
}

// b'(x, d) = d 2 x sum_{i<BIG} i^2 / BIG^3.
static double b_grad(double x, int d) {
  double n = BIG;
  return d * 2 * x * ((n - 1) * n * (2 * n - 1) / 6) / (n * n * n);
}

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
  // A first tape larger than the first chunk, which a smaller gradient
  // made: the arena starts over with a larger chunk, and is still seen
  // empty once the gradient ends, so that the release frees all of it.
  double db = 0;
  tapestry_release_tape_cache();
  size_t live0 = __sanitizer_get_current_allocated_bytes();
  gradient(x, dx, 7);
  db = __enzyme_autodiff((void *)b, 0.75, enzyme_const, 3);
  check_close("d/dx b(x, 3)", db, b_grad(0.75, 3), 1e-12);
  db = __enzyme_autodiff((void *)b, 0.5, enzyme_const, 5);
  check_close("d/dx b(x, 5)", db, b_grad(0.5, 5), 1e-12);
  tapestry_release_tape_cache();
  check_close("bytes left after a first tape past the first chunk",
              (double)(__sanitizer_get_current_allocated_bytes() - live0), 0,
              0);
  return check_report();
}
