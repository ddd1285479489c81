// Issue 17 item 1: a split whose reverse runs the reverse of a callee that
// stays a call (noinline) is reusable when the callee's own split is: the
// forward half keeps each call's tape in a list the caller's tape owns, the
// reverse runs the callee's reverse without consuming it, and the caller's
// release frees the callee tapes (one per call, also inside loops). One
// __enzyme_augmentfwd, then three __enzyme_reverse on the same tape with
// different seeds, the inputs overwritten after the forward half, against
// the analytic gradient at the original inputs.
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

#define M 5
#define TOL 1e-12

__attribute__((noinline)) double h(double x) { return sin(x) * x; }

/* Two calls. */
__attribute__((noinline)) double twice(double *a) {
  return h(a[0]) + h(a[1]) * a[2];
}

/* One call per iteration of a loop whose trip count comes at run time. */
__attribute__((noinline)) double looped(double *a, int m) {
  double s = 0;
  for (int j = 0; j < m; j++)
    s += h(a[j]) * a[(j + 1) % m];
  return s;
}

static double hv(double x) { return sin(x) * x; }
static double dh(double x) { return cos(x) * x + sin(x); }

static const double a0[M] = {0.3, -1.1, 0.7, 2.0, -0.4};
static const double seeds[3] = {1.0, -2.5, 0.75};

static void grad_twice(const double *a, double *g) {
  g[0] = dh(a[0]);
  g[1] = dh(a[1]) * a[2];
  g[2] = hv(a[1]);
  g[3] = g[4] = 0;
}

static void grad_looped(const double *a, int m, double *g) {
  for (int j = 0; j < m; j++)
    g[j] = 0;
  for (int j = 0; j < m; j++) {
    g[j] += dh(a[j]) * a[(j + 1) % m];
    g[(j + 1) % m] += hv(a[j]);
  }
}

int main(void) {
  const tapestry_thunk *t2 = __tapestry_thunk((void *)twice, enzyme_dup);
  const tapestry_thunk *tl =
      __tapestry_thunk((void *)looped, enzyme_dup, enzyme_const);
  check_close("twice is reusable", t2->reusable, 1, 0);
  check_close("looped is reusable", tl->reusable, 1, 0);

  double g[M];
  {
    double a[M], da[M] = {0};
    memcpy(a, a0, sizeof a);
    aug_d r = __enzyme_augmentfwd((void *)twice, enzyme_dup, a, da);
    check_close("twice: primal", r.primal, hv(a0[0]) + hv(a0[1]) * a0[2],
                TOL);
    for (int j = 0; j < M; j++)
      a[j] = 42;
    grad_twice(a0, g);
    for (int k = 0; k < 3; k++) {
      memset(da, 0, sizeof da);
      if (k < 2)
        __enzyme_reverse((void *)twice, enzyme_nofree, enzyme_dup, a, da,
                         seeds[k], r.tape);
      else
        __enzyme_reverse((void *)twice, enzyme_dup, a, da, seeds[k], r.tape);
      for (int j = 0; j < M; j++)
        check_close("twice: replayed da", da[j], seeds[k] * g[j], TOL);
    }
  }
  {
    double a[M], da[M] = {0};
    memcpy(a, a0, sizeof a);
    aug_d r = __enzyme_augmentfwd((void *)looped, enzyme_dup, a, da,
                                  enzyme_const, M);
    for (int j = 0; j < M; j++)
      a[j] = -3;
    grad_looped(a0, M, g);
    for (int k = 0; k < 3; k++) {
      memset(da, 0, sizeof da);
      if (k < 2)
        __enzyme_reverse((void *)looped, enzyme_nofree, enzyme_dup, a, da,
                         enzyme_const, M, seeds[k], r.tape);
      else
        __enzyme_reverse((void *)looped, enzyme_dup, a, da, enzyme_const, M,
                         seeds[k], r.tape);
      for (int j = 0; j < M; j++)
        check_close("looped: replayed da", da[j], seeds[k] * g[j], TOL);
    }
  }
  /* Released after 0 and 1 reverse sweeps (ASan/valgrind: no leak, no
   * double free). */
  for (int runs = 0; runs < 2; runs++) {
    double a[M], da[M] = {0};
    memcpy(a, a0, sizeof a);
    void *tape = tapestry_tape_new(tl);
    ((double (*)(double *, double *, int, void *))tl->augmented)(a, da, M,
                                                               tape);
    for (int k = 0; k < runs; k++)
      ((void (*)(double *, double *, int, double, void *, void *))
           tl->reverse)(a, da, M, 1.0, tape, NULL);
    tapestry_tape_delete(tl, tape);
    if (runs)
      for (int j = 0; j < M; j++)
        check_close("looped: thunk da", da[j], g[j], TOL);
  }
  return check_report();
}
