// Issue 17 item 1: a function that calls itself stays a call, and the split
// of each level keeps the tapes of its recursive call (one list per call
// site); the reverse of the recursive call leaves them, so the split is
// reusable when the rest of the function allows it (by induction on the
// depth of the recursion). One __enzyme_augmentfwd, then three
// __enzyme_reverse on the same tape with different seeds, the inputs
// overwritten after the forward half, against central finite differences
// at the original inputs; also through the thunk, released after 0 and 1
// sweeps. Functions calling each other (mutual recursion) are not claimed
// reusable, and their one sweep is right; a demanded reusable tape is a
// compile error saying why.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: not %clang -O1 -g -DDEMAND %s -lm -o %t.demand 2>&1 | FileCheck %s --check-prefix=DEMAND
// DEMAND: error: tapestry: cannot give 'ev' a reusable tape (tapestry_reusable_tape): its reverse sweep runs the reverse of 'od' (line [[#]]), whose own tape is not reusable ({{.*}}(mutual recursion) and may consume its own tape
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <string.h>
#include <tapestry/thunk.h>

extern int enzyme_dup, enzyme_const, enzyme_nofree, tapestry_reusable_tape;
typedef struct {
  void *tape;
  double primal;
} aug_d;
aug_d __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

#define M 5
#define TOL 1e-7

/* r_0 = a[0], r_n = sin(r_{n-1}) a[n] + r_{n-1} a[n-1]. */
double rec(const double *a, int n) {
  if (n == 0)
    return a[0];
  double r = rec(a, n - 1);
  return sin(r) * a[n] + r * a[n - 1];
}

/* Calls the recursion twice, once in a loop. */
double f(const double *a, int m) {
  double s = rec(a, m - 1);
  for (int j = 1; j < m; j += 2)
    s += rec(a, j) * a[j - 1];
  return s;
}

/* Mutual recursion. */
double od(const double *a, int n);
double ev(const double *a, int n) {
  return n == 0 ? a[0] : cos(od(a, n - 1)) * a[n];
}
double od(const double *a, int n) { return sin(ev(a, n - 1)) + a[n]; }

static const double a0[M] = {0.3, -1.1, 0.7, 0.9, -0.4};
static const double seeds[3] = {1.0, -2.5, 0.75};

/* Central finite differences of fn(a, n) in each a[j]. */
static void fd(double (*fn)(const double *, int), int n, double *g) {
  for (int j = 0; j < M; j++) {
    double a[M];
    memcpy(a, a0, sizeof a);
    const double e = 1e-6;
    a[j] = a0[j] + e;
    double p = fn(a, n);
    a[j] = a0[j] - e;
    double q = fn(a, n);
    g[j] = (p - q) / (2 * e);
  }
}

int main(void) {
#ifdef DEMAND
  (void)__tapestry_thunk((void *)ev, tapestry_reusable_tape, enzyme_dup,
                         enzyme_const);
#endif
  const tapestry_thunk *tr =
      __tapestry_thunk((void *)rec, enzyme_dup, enzyme_const);
  const tapestry_thunk *tf =
      __tapestry_thunk((void *)f, enzyme_dup, enzyme_const);
  const tapestry_thunk *te =
      __tapestry_thunk((void *)ev, enzyme_dup, enzyme_const);
  check_close("rec is reusable", tr->reusable, 1, 0);
  check_close("f is reusable", tf->reusable, 1, 0);
  check_close("ev (mutual recursion) is not claimed reusable", te->reusable,
              0, 0);

  double g[M];
  fd(f, M, g);
  {
    double a[M], da[M] = {0};
    memcpy(a, a0, sizeof a);
    aug_d r = __enzyme_augmentfwd((void *)f, enzyme_dup, a, da, enzyme_const,
                                  M);
    check_close("f: primal", r.primal, f(a0, M), 1e-14);
    for (int j = 0; j < M; j++)
      a[j] = 42;
    for (int k = 0; k < 3; k++) {
      memset(da, 0, sizeof da);
      if (k < 2)
        __enzyme_reverse((void *)f, enzyme_nofree, enzyme_dup, a, da,
                         enzyme_const, M, seeds[k], r.tape);
      else
        __enzyme_reverse((void *)f, enzyme_dup, a, da, enzyme_const, M,
                         seeds[k], r.tape);
      for (int j = 0; j < M; j++)
        check_close("f: replayed da", da[j], seeds[k] * g[j], TOL);
    }
  }
  /* rec through its thunk, released after 0 and 1 sweeps (ASan/valgrind:
   * no leak, no double free), and replayed twice. */
  fd(rec, M - 1, g);
  for (int runs = 0; runs < 3; runs++) {
    double a[M], da[M] = {0};
    memcpy(a, a0, sizeof a);
    void *tape = tapestry_tape_new(tr);
    ((double (*)(const double *, double *, int, void *))tr->augmented)(
        a, da, M - 1, tape);
    for (int j = 0; j < M; j++)
      a[j] = -3;
    for (int k = 0; k < runs; k++) {
      memset(da, 0, sizeof da);
      ((void (*)(const double *, double *, int, double, void *, void *))
           tr->reverse)(a, da, M - 1, seeds[k], tape, NULL);
      for (int j = 0; j < M; j++)
        check_close("rec: thunk da", da[j], seeds[k] * g[j], TOL);
    }
    tapestry_tape_delete(tr, tape);
  }
  /* One sweep of the mutual recursion. */
  fd(ev, M - 1, g);
  {
    double a[M], da[M] = {0};
    memcpy(a, a0, sizeof a);
    aug_d r = __enzyme_augmentfwd((void *)ev, enzyme_dup, a, da, enzyme_const,
                                  M - 1);
    __enzyme_reverse((void *)ev, enzyme_dup, a, da, enzyme_const, M - 1, 1.0,
                     r.tape);
    for (int j = 0; j < M; j++)
      check_close("ev: da", da[j], g[j], TOL);
  }
  return check_report();
}
