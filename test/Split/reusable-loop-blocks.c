// Heap blocks allocated inside loops (one per iteration, freed in the same
// iteration) are the tape's (issue 17 item 1): the forward half links each
// block and its shadow into a list as it allocates them, the reverse
// zeroes the shadows through the list before it starts and frees nothing,
// and the release frees them. Such a tape is reusable, demanded or not:
// one forward half, three reverse sweeps with seeds 1, 2, 3 on one tape
// (inputs overwritten after the forward half), through Enzyme's entry
// points and through a caller's buffer (enzyme_allocated), with blocks in
// a nested loop with run-time trip counts and calloc'd blocks allocated on
// only some iterations. Gradients are analytic.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
#include <string.h>
#include <tapestry/thunk.h>

extern int enzyme_dup, enzyme_const, enzyme_nofree, enzyme_allocated,
    enzyme_tape, tapestry_reusable_tape;
typedef struct {
  void *tape;
  double primal;
} aug_d;
aug_d __enzyme_augmentfwd(void *, ...);
double __enzyme_augmentfwd_buffer(void *, ...);
void __enzyme_reverse(void *, ...);
int __enzyme_augmentsize(void *, ...);

#define N 4
#define TOL 1e-12

/* f = sum_i x_i sum_j sin(x_i (j + 1))^2, row i's sines in a block of
   its own. */
double rows(const double *x, int n, int m) {
  double acc = 0;
  for (int i = 0; i < n; i++) {
    double *w = (double *)malloc(m * sizeof(double));
    for (int j = 0; j < m; j++)
      w[j] = sin(x[i] * (j + 1));
    double r = 0;
    for (int j = 0; j < m; j++)
      r += w[j] * w[j];
    acc += r * x[i];
    free(w);
  }
  return acc;
}

/* f = sum over x_i > 0 of x_i e^{x_i} (through a calloc'd pair), plus the
   sum of x_i^2 over the others. */
double some_rows(const double *x, int n) {
  double acc = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] > 0) {
      double *t = (double *)calloc(2, sizeof(double));
      t[0] = exp(x[i]);
      t[1] = x[i] * t[0];
      acc += t[1];
      free(t);
    } else {
      acc += x[i] * x[i];
    }
  }
  return acc;
}

static const double x0[N] = {0.3, -1.1, 0.7, 0.45};

static void want_rows(int m, double *g) {
  for (int i = 0; i < N; i++) {
    double x = x0[i], r = 0, dr = 0;
    for (int j = 0; j < m; j++) {
      double s = sin(x * (j + 1)), c = cos(x * (j + 1));
      r += s * s;
      dr += 2 * s * c * (j + 1);
    }
    g[i] = r + x * dr;
  }
}

static void want_some(double *g) {
  for (int i = 0; i < N; i++)
    g[i] = x0[i] > 0 ? (1 + x0[i]) * exp(x0[i]) : 2 * x0[i];
}

int main(void) {
  const tapestry_thunk *tr = __tapestry_thunk(
      (void *)rows, tapestry_reusable_tape, enzyme_dup, enzyme_const,
      enzyme_const);
  const tapestry_thunk *ts = __tapestry_thunk(
      (void *)some_rows, tapestry_reusable_tape, enzyme_dup, enzyme_const);
  check_close("rows is reusable", tr->reusable, 1, 0);
  check_close("some_rows is reusable", ts->reusable, 1, 0);

  for (int m = 1; m <= 5; m += 4) {
    double g[N];
    want_rows(m, g);
    double x[N], dx[N] = {0};
    memcpy(x, x0, sizeof x);
    aug_d r = __enzyme_augmentfwd((void *)rows, tapestry_reusable_tape,
                                  enzyme_dup, x, dx, enzyme_const, N,
                                  enzyme_const, m);
    for (int i = 0; i < N; i++)
      x[i] = 42; /* overwritten after the forward half */
    for (int k = 1; k <= 3; k++) {
      memset(dx, 0, sizeof dx);
      if (k < 3)
        __enzyme_reverse((void *)rows, tapestry_reusable_tape, enzyme_nofree,
                         enzyme_dup, x, dx, enzyme_const, N, enzyme_const, m,
                         (double)k, r.tape);
      else
        __enzyme_reverse((void *)rows, tapestry_reusable_tape, enzyme_dup, x,
                         dx, enzyme_const, N, enzyme_const, m, (double)k,
                         r.tape);
      for (int i = 0; i < N; i++)
        check_close("rows: replayed dx", dx[i], k * g[i], TOL);
    }
  }

  {
    double g[N];
    want_some(g);
    double x[N], dx[N] = {0};
    memcpy(x, x0, sizeof x);
    int size = __enzyme_augmentsize((void *)some_rows, enzyme_dup,
                                    enzyme_const);
    char buf[512] __attribute__((aligned(16)));
    check_close("some_rows: tape fits the buffer", size <= (int)sizeof buf, 1,
                0);
    double f = __enzyme_augmentfwd_buffer((void *)some_rows, enzyme_allocated,
                                          size, enzyme_tape, buf, enzyme_dup,
                                          x, dx, enzyme_const, N);
    check_close("some_rows: primal", f,
                0.3 * exp(0.3) + 1.21 + 0.7 * exp(0.7) + 0.45 * exp(0.45),
                TOL);
    for (int i = 0; i < N; i++)
      x[i] = -7;
    for (int k = 1; k <= 3; k++) {
      memset(dx, 0, sizeof dx);
      if (k < 3)
        __enzyme_reverse((void *)some_rows, enzyme_allocated, size,
                         enzyme_tape, buf, enzyme_nofree, enzyme_dup, x, dx,
                         enzyme_const, N, (double)k);
      else
        __enzyme_reverse((void *)some_rows, enzyme_allocated, size,
                         enzyme_tape, buf, enzyme_dup, x, dx, enzyme_const, N,
                         (double)k);
      for (int i = 0; i < N; i++)
        check_close("some_rows: replayed dx", dx[i], k * g[i], TOL);
    }
  }
  return check_report();
}
