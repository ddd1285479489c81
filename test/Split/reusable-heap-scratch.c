// Issue 17 item 1: a tape that owns the function's heap scratch (a malloc'd
// block the forward half fills and the reverse only reads) is reusable: the
// reverse no longer frees the block or its shadow (the tape's release does,
// once, whether the reverse ran 0, 1 or 3 times) and zeroes the shadow
// before it starts. One __enzyme_augmentfwd, then three __enzyme_reverse on
// the same tape with different seeds, the inputs overwritten after the
// forward half, against the analytic gradient at the original inputs.
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

extern int enzyme_dup, enzyme_const, enzyme_nofree;
typedef struct {
  void *tape;
  double primal;
} aug_d;
aug_d __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

#define M 6
#define TOL 1e-12

/* s = sum_j sin(a_j) a_j, through a scratch block. */
__attribute__((noinline)) double scratch(double *a, int m) {
  double *g = malloc(m * sizeof(double));
  for (int j = 0; j < m; j++)
    g[j] = sin(a[j]);
  double s = 0;
  for (int j = 0; j < m; j++)
    s += g[j] * a[j];
  free(g);
  return s;
}

/* s = sum_k sum_j sin((k+1) a_j) a_j: the block is refilled in a loop. */
__attribute__((noinline)) double refilled(double *a, int m, int r) {
  double *g = calloc(m, sizeof(double));
  double s = 0;
  for (int k = 0; k < r; k++) {
    for (int j = 0; j < m; j++)
      g[j] = sin((k + 1) * a[j]);
    for (int j = 0; j < m; j++)
      s += g[j] * a[j];
  }
  free(g);
  return s;
}

static double dscratch(double x) { return cos(x) * x + sin(x); }
static double drefilled(double x, int r) {
  double d = 0;
  for (int k = 0; k < r; k++)
    d += (k + 1) * cos((k + 1) * x) * x + sin((k + 1) * x);
  return d;
}

static const double a0[M] = {0.3, -1.1, 0.7, 2.0, -0.4, 1.3};
static const double seeds[3] = {1.0, -2.5, 0.75};

static void replay_scratch(void) {
  double a[M], da[M];
  memcpy(a, a0, sizeof a);
  memset(da, 0, sizeof da);
  aug_d r = __enzyme_augmentfwd((void *)scratch, enzyme_dup, a, da,
                                enzyme_const, M);
  double s = 0;
  for (int j = 0; j < M; j++)
    s += sin(a0[j]) * a0[j];
  check_close("scratch: primal", r.primal, s, TOL);
  for (int j = 0; j < M; j++)
    a[j] = 100 + j; /* the reverse must read only its tape */
  for (int k = 0; k < 3; k++) {
    memset(da, 0, sizeof da);
    if (k < 2)
      __enzyme_reverse((void *)scratch, enzyme_nofree, enzyme_dup, a, da,
                       enzyme_const, M, seeds[k], r.tape);
    else
      __enzyme_reverse((void *)scratch, enzyme_dup, a, da, enzyme_const, M,
                       seeds[k], r.tape);
    for (int j = 0; j < M; j++)
      check_close("scratch: replayed da", da[j], seeds[k] * dscratch(a0[j]),
                  TOL);
  }
}

static void replay_refilled(void) {
  const int R = 3;
  double a[M], da[M];
  memcpy(a, a0, sizeof a);
  memset(da, 0, sizeof da);
  aug_d r = __enzyme_augmentfwd((void *)refilled, enzyme_dup, a, da,
                                enzyme_const, M, enzyme_const, R);
  for (int j = 0; j < M; j++)
    a[j] = -7;
  for (int k = 0; k < 3; k++) {
    memset(da, 0, sizeof da);
    if (k < 2)
      __enzyme_reverse((void *)refilled, enzyme_nofree, enzyme_dup, a, da,
                       enzyme_const, M, enzyme_const, R, seeds[k], r.tape);
    else
      __enzyme_reverse((void *)refilled, enzyme_dup, a, da, enzyme_const, M,
                       enzyme_const, R, seeds[k], r.tape);
    for (int j = 0; j < M; j++)
      check_close("refilled: replayed da", da[j],
                  seeds[k] * drefilled(a0[j], R), TOL);
  }
}

typedef double (*scratch_aug)(double *, double *, int, void *);
typedef void (*scratch_rev)(double *, double *, int, double, void *, void *);

/* Through the thunk: the reverse runs 0, 1 or 3 times, then the tape is
 * released (run under ASan or valgrind: every block freed once). */
static void thunk_runs(const tapestry_thunk *t, int runs) {
  double a[M], da[M] = {0};
  memcpy(a, a0, sizeof a);
  void *tape = tapestry_tape_new(t);
  ((scratch_aug)t->augmented)(a, da, M, tape);
  for (int k = 0; k < runs; k++) {
    memset(da, 0, sizeof da);
    ((scratch_rev)t->reverse)(a, da, M, seeds[k], tape, NULL);
    for (int j = 0; j < M; j++)
      check_close("thunk: da", da[j], seeds[k] * dscratch(a0[j]), TOL);
  }
  tapestry_tape_delete(t, tape);
}

int main(void) {
  const tapestry_thunk *t =
      __tapestry_thunk((void *)scratch, enzyme_dup, enzyme_const);
  const tapestry_thunk *tr = __tapestry_thunk((void *)refilled, enzyme_dup,
                                              enzyme_const, enzyme_const);
  check_close("scratch is reusable", t->reusable, 1, 0);
  check_close("refilled is reusable", tr->reusable, 1, 0);
  replay_scratch();
  replay_refilled();
  thunk_runs(t, 0);
  thunk_runs(t, 1);
  thunk_runs(t, 3);
  return check_report();
}
