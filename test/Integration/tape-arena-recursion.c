// The tapes of calls a one-shot gradient does not inline (here a recursion
// 10,000 deep) come from a per-thread arena of chunks that grows to the
// deepest recursion and is reused (plugin/Synthesis/TapeCache.h). The
// gradient of a recursive sum is checked against the analytic one at depth
// 10,000 (the arena grows past its first chunks), then at a shallower depth
// (the arena goes back to its first chunk), deeper again, and after
// tapestry_release_tape_cache() (the arena starts over); then from four
// threads at once, each at its own depths. Under AddressSanitizer and
// LeakSanitizer: no tape is used after it is given back, none is shared
// between threads, and nothing leaks (each thread's arena is freed as the
// thread exits).
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

#define N 3

// The weight of recursion level d.
static double weight(int d) { return (d % 3 + 1) * 1e-4; }

// f(x, d) = sum_i exp(weight(d) sin(x_i) x_i) + f(x, d - 1), f(x, 0) = 0.
// The loop overwrites t, which the reverse needs: each level keeps a record
// array as well as its fixed tape.
double f(const double *x, int d) {
  if (d == 0)
    return 0;
  double s = 0, t;
  for (int i = 0; i < N; ++i) {
    t = weight(d) * sin(x[i]) * x[i];
    s += exp(t);
  }
  return s + f(x, d - 1);
}

// d f / d x_i = sum_d weight(d) exp(weight(d) g(x_i)) g'(x_i), g = sin(x) x.
static double grad_i(const double *x, int depth, int i) {
  double g = sin(x[i]) * x[i], dg = cos(x[i]) * x[i] + sin(x[i]), s = 0;
  for (int d = 1; d <= depth; ++d)
    s += weight(d) * exp(weight(d) * g) * dg;
  return s;
}

// One gradient at depth; returns the number of wrong components.
static int check_depth(int depth, double shift, int quiet) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.4 * i + shift;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, depth);
  int bad = 0;
  for (int i = 0; i < N; ++i) {
    double want = grad_i(x, depth, i);
    if (!quiet) {
      char what[64];
      snprintf(what, sizeof what, "depth %d d/dx%d", depth, i);
      check_close(what, dx[i], want, 1e-9);
    } else if (fabs(dx[i] - want) > 1e-9 * (1 + fabs(want))) {
      ++bad;
    }
  }
  return bad;
}

struct job {
  int first, failures;
};

static void *worker(void *arg) {
  struct job *J = arg;
  for (int k = 0; k < 20; ++k)
    J->failures += check_depth(J->first + 977 * (k % 5), 0.01 * k, 1);
  return 0;
}

// Recursion 10,000 deep needs a larger stack than a thread's default at -O0
// under AddressSanitizer: the deep gradients run on threads of 512 MiB.
static pthread_t start(void *(*fn)(void *), void *arg) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, (size_t)512 << 20);
  pthread_t t;
  if (pthread_create(&t, &attr, fn, arg))
    abort();
  pthread_attr_destroy(&attr);
  return t;
}

static void *sequence(void *unused) {
  (void)unused;
  check_depth(10000, 0, 0);
  check_depth(10, 0, 0);
  check_depth(10000, 0.1, 0);
  check_depth(20000, 0.2, 0);
  tapestry_release_tape_cache();
  check_depth(5000, 0.3, 0);
  check_depth(1, 0.4, 0);
  return 0;
}

int main(void) {
  pthread_join(start(sequence, 0), 0);
  struct job jobs[4] = {{10000, 0}, {3, 0}, {4000, 0}, {200, 0}};
  pthread_t t[4];
  for (int k = 0; k < 4; ++k)
    t[k] = start(worker, &jobs[k]);
  for (int k = 0; k < 4; ++k) {
    pthread_join(t[k], 0);
    char what[64];
    snprintf(what, sizeof what, "thread %d: wrong components", k);
    check_close(what, jobs[k].failures, 0, 0);
  }
  // The main thread too, and its arena released before the leak check.
  check_depth(300, 0.5, 0);
  tapestry_release_tape_cache();
  return check_report();
}
