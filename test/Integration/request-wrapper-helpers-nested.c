// A request on a function-pointer parameter, made by a helper that its
// callers reach through further helpers passing the pointer on (a gradient
// check harness: `check(f, x)` calls `report(f, x)`, which calls
// `gradient(f, x, g)`, which differentiates f), every chain naming the
// function at its start (probe42 F1: one helper deep worked, two were
// refused at every -O level, "a function pointer whose value is known only
// at run time"). The helpers that pass the pointer on are inlined where
// their callers name the function, level by level. Expected values are
// analytic.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>

extern void __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

typedef double (*objective_fn)(const double *x, int n);

static double quad(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (i + 1) * x[i] * x[i];
  return s;
}
static double rosen(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i++)
    s += 100 * pow(x[i + 1] - x[i] * x[i], 2) + pow(1 - x[i], 2);
  return s;
}

static void gradient(objective_fn f, const double *x, double *g, int n) {
  for (int i = 0; i < n; i++)
    g[i] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, n);
}

// Two levels: the pointer is report's first parameter.
static void report(objective_fn f, const double *x, double *g, int n) {
  gradient(f, x, g, n);
}

// Three levels, the pointer in another position, and a directional
// derivative by forward mode beside it.
static double directional(const double *x, const double *v, int n,
                          objective_fn f) {
  return __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, n);
}
static double check(int n, objective_fn f, const double *x, double *g,
                    const double *v) {
  report(f, x, g, n);
  return directional(x, v, n, f);
}

int main(void) {
  enum { N = 4 };
  double x[N] = {0.3, -1.1, 0.8, 1.5}, v[N] = {1, -2, 0.5, 0.25}, g[N];
  report(quad, x, g, N);
  for (int i = 0; i < N; i++)
    check_close("quad, two levels", g[i], 2 * (i + 1) * x[i], 1e-12);
  double dq = check(N, quad, x, g, v), want = 0;
  for (int i = 0; i < N; i++) {
    check_close("quad, three levels", g[i], 2 * (i + 1) * x[i], 1e-12);
    want += 2 * (i + 1) * x[i] * v[i];
  }
  check_close("quad, forward, two levels", dq, want, 1e-12);
  double dr = check(N, rosen, x, g, v);
  want = 0;
  for (int i = 0; i < N; i++) {
    double gi = 0;
    if (i + 1 < N)
      gi += -400 * x[i] * (x[i + 1] - x[i] * x[i]) - 2 * (1 - x[i]);
    if (i > 0)
      gi += 200 * (x[i] - x[i - 1] * x[i - 1]);
    check_close("rosen, three levels", g[i], gi, 1e-10);
    want += gi * v[i];
  }
  check_close("rosen, forward, two levels", dr, want, 1e-10);
  return check_report();
}
