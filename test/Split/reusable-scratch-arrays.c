// A function with local scratch arrays, one of them filled with memcpy, in
// loops with a run-time trip count, demanded reusable
// (tapestry_reusable_tape): the reverse copies the arrays it updates (the
// shadows of the locals) out of the tape and rebases the addresses into
// them it reads from the tape, so the tape stays as the forward left it and
// one forward serves many reverse sweeps (issue 17). Once this was rejected
// with "updates memory that the tape holds (a local variable)". Adjoints
// are analytic: y_i = sin(x_i)^2 x_i.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <string.h>
#include <tapestry/thunk.h>

extern int enzyme_dup, enzyme_const, tapestry_reusable_tape;

#define N 6

__attribute__((noinline)) void h(const double *x, double *y, int n) {
  double t[8], u[8];
  for (int i = 0; i < n; i++)
    t[i] = sin(x[i]);
  memcpy(u, t, sizeof t);
  for (int i = 0; i < n; i++) {
    u[i] *= x[i];
    y[i] = u[i] * t[i];
  }
}

typedef void (*h_aug)(const double *, double *, double *, double *, int,
                      void *);
typedef void (*h_rev)(const double *, double *, double *, double *, int,
                      void *, void *);

int main(void) {
  const tapestry_thunk *t = __tapestry_thunk(
      (void *)h, tapestry_reusable_tape, enzyme_dup, enzyme_dup, enzyme_const);
  check_close("h is reusable", t->reusable, 1, 0);
  double x[N], dx[N] = {0}, y[N], dy[N] = {0}, want[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.4 + 0.3 * i;
    double s = sin(x[i]), c = cos(x[i]);
    want[i] = 2 * s * c * x[i] + s * s;
  }
  void *tape = tapestry_tape_new(t);
  ((h_aug)t->augmented)(x, dx, y, dy, N, tape);
  for (int i = 0; i < N; i++)
    x[i] = -9; /* the caller reuses its buffer */
  char what[64];
  for (int k = 1; k <= 4; k++) {
    for (int i = 0; i < N; i++) {
      dx[i] = 0;
      dy[i] = k * (i + 1); /* a different seed each sweep */
    }
    ((h_rev)t->reverse)(x, dx, y, dy, N, tape, 0);
    for (int i = 0; i < N; i++) {
      snprintf(what, sizeof what, "sweep %d: d/dx%d", k, i);
      check_close(what, dx[i], k * (i + 1) * want[i], 1e-13);
    }
  }
  tapestry_tape_delete(t, tape);
  return check_report();
}
