// A gradient called again and again allocates no record array it already
// had (issue 16 item 3; plugin/Synthesis/TapeCache.h). Each loop's record
// array starts from the cached block that fits it best. The thread's cache
// used to hand out its blocks first come, first served: with more taping
// loops than cache slots (an LSTM's gradient has 8, the cache had 4), the
// short loops that start first took the blocks the long loop had grown,
// and the long loop allocated a fresh block of megabytes every call (glibc
// mapped it, and the first store into each page faulted): LSTM small's
// gradient went from 0.7x the hand-written derivative to 46x.
//
// Here ten loops keep records: nine short ones (M iterations) and a long
// one (N iterations, records past glibc's mmap threshold) among them. Every
// record array is allocated through realloc, counted by -Wl,--wrap. After
// the first calls, no call may allocate a record array as large as the
// long loop's: that block is the cache's largest and is reused every call.
// (The short loops' small blocks may be allocated again: ten loops, fewer
// slots.) No timing. Expected gradients: analytic.
// RUN: %clang -O0 %s -Wl,--wrap=realloc %tapestry_rt -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -Wl,--wrap=realloc %tapestry_rt -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <tapestry/runtime.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

enum { M = 64, N = 40000 };

// Record arrays reach realloc (tapestry.tape.reserve); big ones are counted
// while `counting` is set.
void *__real_realloc(void *, size_t);
static int counting;
static long big_allocs;
static size_t big_bytes;
void *__wrap_realloc(void *p, size_t n) {
  if (counting && n >= big_bytes)
    ++big_allocs;
  return __real_realloc(p, n);
}

// One short loop: s += exp(a sin(x_i) x_i) for i < m (the reverse needs
// the exponential, taped per iteration).
#define SHORT(a)                                                               \
  for (int i = 0; i < m; ++i)                                                  \
    s += exp((a) * sin(x[i]) * x[i]);

static double f(const double *x, int m, int n) {
  double s = 0;
  SHORT(0.1) SHORT(0.2) SHORT(0.3) SHORT(0.4) SHORT(0.5)
  // The long loop, in the middle, so that whichever order the records are
  // set up in, five short loops take their blocks first: s += exp(cos(x_i)
  // x_i) / n for i < n.
  for (int i = 0; i < n; ++i)
    s += exp(cos(x[i]) * x[i]) / n;
  SHORT(0.6) SHORT(0.7) SHORT(0.8) SHORT(0.9)
  return s;
}

static double grad_k(const double *x, int m, int n, int k) {
  double v = x[k], g = 0;
  if (k < m)
    for (int j = 1; j <= 9; ++j) {
      double a = 0.1 * j;
      g += exp(a * sin(v) * v) * a * (cos(v) * v + sin(v));
    }
  if (k < n)
    g += exp(cos(v) * v) * (cos(v) - sin(v) * v) / n;
  return g;
}

int main(void) {
  double *x = malloc(N * sizeof(double)), *dx = malloc(N * sizeof(double));
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.5 * sin(0.01 * i);
  // The long loop keeps at least 8 bytes a record; the short loops' arrays
  // hold M records of a few doubles each, far below this.
  big_bytes = (size_t)N * 8;
  int bad = 0;
  for (int call = 0; call < 8; ++call) {
    // Calls 0 and 1 fill the cache; the others must reuse it.
    counting = call >= 2;
    for (int i = 0; i < N; ++i)
      dx[i] = 0;
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, M,
                      enzyme_const, N);
    counting = 0;
    for (int k = 0; k < N; k += 1 + k / 2) {
      double want = grad_k(x, M, N, k);
      if (fabs(dx[k] - want) > 1e-10 * (1 + fabs(want)))
        ++bad;
    }
  }
  check_close("wrong gradient entries", bad, 0, 0);
  check_close("record arrays of the long loop allocated after the first calls",
              big_allocs, 0, 0);
  tapestry_release_tape_cache();
  // The counter counts: with the cache emptied, the next call allocates the
  // long loop's records again.
  big_allocs = 0;
  counting = 1;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, M,
                    enzyme_const, N);
  counting = 0;
  check_close("the long loop's record array allocated once with the cache "
              "released",
              big_allocs, 1, 0);
  free(x);
  free(dx);
  return check_report();
}
