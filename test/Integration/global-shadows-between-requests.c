// A global the differentiated code writes (a scratch value, a
// Numerical-Recipes-style static workspace) has an implicit shadow that
// every derivative shares. A forward call left its tangents there and the
// next reverse call read them as seeds (28 instead of 12, probe22a W2);
// each request's call site now zeroes the floating-point values of the
// implicit shadows its derivative uses (both halves' for a split), in a
// loop over the records of an array of records holding pointers (whose
// pointers stay: a member-by-member zeroing stopped after 256 members and
// left the rest, found in review), and in a thunk's augmented forward.
// Forward, reverse, split, thunk and batch requests interleaved; expected
// derivatives are analytic.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>
#include <string.h>
#include <tapestry/thunk.h>

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_width;
double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);
void __enzyme_autodiff_v(void *, ...);
typedef struct {
  void *tape;
  double primal;
} aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct {
  double a, b;
} T2;
T2 __enzyme_fwddiff2(void *, ...);

double work; // written before it is read
double cube(double x) {
  work = x * x;
  return work * x;
}

// s = sum_{interior i} (w_{i-1} - 2 w_i + w_{i+1} + w_i y_i), w_i = y_i^2
double smooth(const double *y, int n) {
  static double w[16];
  for (int i = 0; i < n; i++)
    w[i] = y[i] * y[i];
  double s = 0;
  for (int i = 1; i + 1 < n; i++)
    s += w[i - 1] - 2 * w[i] + w[i + 1] + w[i] * y[i];
  return s;
}

enum { NRec = 200 };
struct Rec {
  double v;
  struct Rec *next;
} recs[NRec];
// sum_{i<NRec} (i+1) x^2 through a linked list in a global array
double linked(double x) {
  double s = 0;
  for (int i = 0; i < NRec; i++) {
    recs[i].v = (i + 1) * x;
    recs[i].next = i + 1 < NRec ? &recs[i + 1] : 0;
  }
  for (struct Rec *r = recs; r; r = r->next)
    s += r->v * x;
  return s;
}

int main(void) {
  double x = 2.0;
  for (int round = 0; round < 2; round++) {
    check_close("fwd cube", __enzyme_fwddiff((void *)cube, x, 1.0), 3 * x * x,
                1e-13);
    check_close("rev cube", __enzyme_autodiff((void *)cube, enzyme_out, x),
                3 * x * x, 1e-13);
    check_close("fwd cube seed 2", __enzyme_fwddiff((void *)cube, x, 2.0),
                6 * x * x, 1e-13);
    aug_t a = __enzyme_augmentfwd((void *)cube, enzyme_out, x);
    check_close("split cube", __enzyme_reverse((void *)cube, enzyme_out, x, 1.0,
                                               a.tape),
                3 * x * x, 1e-13);
  }
  enum { N = 6 };
  double y[N] = {0.1, 0.5, -0.3, 0.8, 1.2, -0.7};
  double c[N] = {0};
  for (int i = 1; i + 1 < N; i++) {
    c[i - 1] += 1;
    c[i] -= 2;
    c[i + 1] += 1;
  }
  double want[N];
  for (int k = 0; k < N; k++)
    want[k] = 2 * c[k] * y[k] + (k > 0 && k + 1 < N ? 3 * y[k] * y[k] : 0);
  for (int round = 0; round < 2; round++) {
    double e2[N] = {0, 0, 1, 0, 0, 0}, e4[N] = {0, 0, 0, 0, 1, 0};
    check_close("fwd smooth",
                __enzyme_fwddiff((void *)smooth, enzyme_dup, y, e2,
                                 enzyme_const, N),
                want[2], 1e-12);
    T2 b = __enzyme_fwddiff2((void *)smooth, enzyme_width, 2, enzyme_dup, y, e2,
                             e4, enzyme_const, N);
    check_close("batch smooth 0", b.a, want[2], 1e-12);
    check_close("batch smooth 1", b.b, want[4], 1e-12);
    double g[N];
    memset(g, 0, sizeof g);
    __enzyme_autodiff_v((void *)smooth, enzyme_dup, y, g, enzyme_const, N);
    for (int k = 0; k < N; k++)
      check_close("rev smooth", g[k], want[k], 1e-12);
  }
  typedef double (*CubeAug)(double, void *);
  typedef void (*CubeRev)(double, double, void *, void *);
  const tapestry_thunk *t = __tapestry_thunk((void *)cube, enzyme_out);
  for (int round = 0; round < 2; round++) {
    check_close("fwd cube before thunk", __enzyme_fwddiff((void *)cube, x, 1.0),
                3 * x * x, 1e-13);
    void *tape = tapestry_tape_new(t);
    ((CubeAug)t->augmented)(x, tape);
    double dx[1];
    ((CubeRev)t->reverse)(x, 1.0, tape, dx);
    check_close("thunk cube", dx[0], 3 * x * x, 1e-13);
    tapestry_tape_delete(t, tape);
  }
  double lw = 2 * x * (NRec * (NRec + 1) / 2.0);
  for (int round = 0; round < 2; round++) {
    check_close("fwd linked", __enzyme_fwddiff((void *)linked, x, 1.0), lw,
                1e-12);
    check_close("rev linked", __enzyme_autodiff((void *)linked, enzyme_out, x),
                lw, 1e-12);
  }
  return check_report();
}
