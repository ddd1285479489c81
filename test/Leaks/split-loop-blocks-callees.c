// LeakSanitizer, split mode: blocks allocated in a loop of a callee that
// stays a call (noinline, and called again from a recursive function), so
// each call's tape, kept on the caller's, owns its own list of loop
// blocks. A demanded reusable tape replays three times with seeds 1, 2, 3,
// the one-shot gradient agrees, and nothing leaks whether the reverse ran
// or not. f = 2 g(x, n) + sum_{m=1..n} g(x, m) with g(x, m) = sum_{i<m}
// x_i sin(x_i), so df/dx_i = (sin x_i + x_i cos x_i) (2 + n - i).
// REQUIRES: lsan
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O0 %s -lm -o %t0 && %lsan_run %t0 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O2 %s -lm -o %t2 && %lsan_run %t2 2>&1 | FileCheck %s
// CHECK-NOT: LeakSanitizer
// CHECK-NOT: AddressSanitizer
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
#include <tapestry/thunk.h>

extern int enzyme_dup, enzyme_const, tapestry_reusable_tape;
void __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double g(const double *x, int m) {
  double acc = 0;
  for (int i = 0; i < m; i++) {
    double *t = (double *)malloc(2 * sizeof(double));
    t[0] = sin(x[i]);
    t[1] = x[i];
    acc += t[0] * t[1];
    free(t);
  }
  return acc;
}

__attribute__((noinline)) double rec(const double *x, int m) {
  if (m == 0)
    return 0;
  return g(x, m) + rec(x, m - 1);
}

double f(const double *x, int n) { return 2 * g(x, n) + rec(x, n); }

typedef double (*aug_fn)(const double *, double *, int, void *);
typedef void (*rev_fn)(const double *, double *, int, double, void *);

int main(void) {
  enum { N = 3 };
  double x[N] = {0.1, -0.7, 1.3}, dx[N], want[N];
  for (int i = 0; i < N; i++)
    want[i] = (sin(x[i]) + x[i] * cos(x[i])) * (2 + N - i);
  const tapestry_thunk *t = __tapestry_thunk((void *)f, tapestry_reusable_tape,
                                             enzyme_dup, enzyme_const);
  for (int runs = 0; runs <= 3; runs += 3) {
    void *tape = tapestry_tape_new(t);
    check_close("primal", ((aug_fn)t->augmented)(x, dx, N, tape),
                2 * g(x, N) + rec(x, N), 1e-14);
    for (int k = 1; k <= runs; k++) {
      for (int i = 0; i < N; i++)
        dx[i] = 0;
      ((rev_fn)t->reverse)(x, dx, N, (double)k, tape);
      for (int i = 0; i < N; i++)
        check_close("replayed dx", dx[i], k * want[i], 1e-12);
    }
    tapestry_tape_delete(t, tape);
  }
  double once[N] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, once, enzyme_const, N);
  for (int i = 0; i < N; i++)
    check_close("one-shot dx", once[i], want[i], 1e-12);
  return check_report();
}
