// Reverse sweeps keep their record arrays in a per-thread cache from one
// call to the next (plugin/Synthesis/TapeCache.h). A gradient with two
// loops is called many times, with tapes that grow and shrink, from the
// main thread and four threads at once; each gradient is checked against
// the analytic one. Under AddressSanitizer and LeakSanitizer: no block is
// used after it is freed, shared between threads, or leaked (each thread's
// cache is freed as it exits; the main thread's by
// tapestry_release_tape_cache() and at exit).
// REQUIRES: lsan
// RUN: %clang -fsanitize=address -O0 %s -lm -lpthread %tapestry_rt -o %t0 && %lsan_run %t0 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -O2 %s -lm -lpthread %tapestry_rt -o %t2 && %lsan_run %t2 2>&1 | FileCheck %s
// RUN: %clang -O2 %s -lm -lpthread %tapestry_rt -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <pthread.h>
#include <stdlib.h>
#include <tapestry/runtime.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

// sum_i exp(sin(x_i) x_i) + sum_i (x_i x_{i+1})^2 / n; both loops overwrite
// a scratch value the reverse sweep needs, so each keeps records.
static double f(const double *x, int n) {
  double s = 0, t;
  for (int i = 0; i < n; ++i) {
    t = sin(x[i]) * x[i];
    s += exp(t);
  }
  for (int i = 0; i + 1 < n; ++i) {
    t = x[i] * x[i + 1];
    s += t * t / n;
  }
  return s;
}

static double grad_k(const double *x, int n, int k) {
  double g = exp(sin(x[k]) * x[k]) * (cos(x[k]) * x[k] + sin(x[k]));
  if (k + 1 < n)
    g += 2 * x[k] * x[k + 1] * x[k + 1] / n;
  if (k > 0)
    g += 2 * x[k - 1] * x[k - 1] * x[k] / n;
  return g;
}

// Sizes that grow past and fall below each other (and past 128 KiB of
// records), so cached blocks are reused, outgrown and evicted.
static const int sizes[] = {10, 3000, 50, 20000, 7, 20000, 400, 1};

static int run(int seed) {
  int bad = 0;
  for (int round = 0; round < 40; ++round) {
    int n = sizes[(round + seed) % 8];
    double *x = malloc(n * sizeof(double)), *dx = calloc(n, sizeof(double));
    for (int i = 0; i < n; ++i)
      x[i] = 0.5 + 0.001 * ((i * 7 + seed) % 100);
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
    for (int k = 0; k < n; k += 1 + n / 5)
      if (fabs(dx[k] - grad_k(x, n, k)) > 1e-10 * (1 + fabs(grad_k(x, n, k))))
        ++bad;
    free(x);
    free(dx);
  }
  return bad;
}

static void *thread_main(void *arg) {
  return (void *)(long)run((int)(long)arg);
}

int main(void) {
  int bad = run(0);
  pthread_t t[4];
  for (long i = 0; i < 4; ++i)
    pthread_create(&t[i], 0, thread_main, (void *)(i + 1));
  for (int i = 0; i < 4; ++i) {
    void *r;
    pthread_join(t[i], &r);
    bad += (int)(long)r;
  }
  tapestry_release_tape_cache();
  bad += run(5);
  check_close("wrong gradient entries", bad, 0, 0);
  return check_report();
}
