// A meta-optimisation user's program: gradient descent with an Armijo
// backtracking line search (a while loop halving the step until the
// sufficient-decrease test holds, so the trip count depends on the data),
// whose inner gradient comes from __enzyme_autodiff itself, inside the
// function that is then differentiated again with respect to the
// objective's parameters (reverse over reverse, and forward over reverse).
// The objective is a scaled Rosenbrock valley f(x; a, b) = (a - x0)^2 +
// b (x1 - x0^2)^2. Expected: central finite differences of the whole
// optimiser (the program checks that the perturbed runs backtrack the same
// number of times) and, for the inner gradient, the analytic formula.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang_enzyme -O2 %s -S -emit-llvm -o - | lli - | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
typedef struct {
  double da, db;
} ParamGrad;
ParamGrad __enzyme_autodiff_params(void *, ...);

static int total_backtracks;

double valley(const double *x, const double *p) {
  double u = p[0] - x[0], v = x[1] - x[0] * x[0];
  return u * u + p[1] * v * v;
}

static void valley_grad(const double *x, double *g, const double *p) {
  g[0] = g[1] = 0;
  __enzyme_autodiff((void *)valley, enzyme_dup, x, g, enzyme_const, p);
}

/* Runs `iters` steps from x0 and returns the final objective value. */
double optimise(double a, double b, int iters) {
  double p[2] = {a, b};
  double x[2] = {-0.5, 0.8};
  int backtracks = 0;
  for (int k = 0; k < iters; k++) {
    double g[2];
    valley_grad(x, g, p);
    double fx = valley(x, p), gg = g[0] * g[0] + g[1] * g[1];
    double t = 1;
    double trial[2] = {x[0] - t * g[0], x[1] - t * g[1]};
    while (valley(trial, p) > fx - 1e-4 * t * gg) {
      t *= 0.5;
      trial[0] = x[0] - t * g[0];
      trial[1] = x[1] - t * g[1];
      backtracks++;
    }
    x[0] = trial[0];
    x[1] = trial[1];
  }
  total_backtracks = backtracks;
  return valley(x, p);
}

int main(void) {
  const double a = 1.3, b = 4.0;
  const int iters = 12;

  double x[2] = {0.4, -0.7}, p[2] = {a, b}, g[2];
  valley_grad(x, g, p);
  check_close("inner d/dx0", g[0],
              -2 * (a - x[0]) - 4 * b * x[0] * (x[1] - x[0] * x[0]), 1e-14);
  check_close("inner d/dx1", g[1], 2 * b * (x[1] - x[0] * x[0]), 1e-14);

  double L = optimise(a, b, iters);
  int bt = total_backtracks;
  printf("final value %g after %d backtracks\n", L, bt);
  ParamGrad d = __enzyme_autodiff_params((void *)optimise, enzyme_out, a,
                                         enzyme_out, b, enzyme_const, iters);
  double fa = __enzyme_fwddiff((void *)optimise, a, 1.0, b, 0.0,
                               enzyme_const, iters);
  double fb = __enzyme_fwddiff((void *)optimise, a, 0.0, b, 1.0,
                               enzyme_const, iters);

  const double h = 1e-6;
  int same = 1;
  double Lp = optimise(a + h, b, iters);
  same &= total_backtracks == bt;
  double Lm = optimise(a - h, b, iters);
  same &= total_backtracks == bt;
  double fda = (Lp - Lm) / (2 * h);
  Lp = optimise(a, b + h, iters);
  same &= total_backtracks == bt;
  Lm = optimise(a, b - h, iters);
  same &= total_backtracks == bt;
  double fdb = (Lp - Lm) / (2 * h);
  check_close("perturbed runs backtrack alike", same, 1, 0);
  check_close("reverse over reverse dL/da", d.da, fda, 1e-6);
  check_close("reverse over reverse dL/db", d.db, fdb, 1e-6);
  check_close("forward over reverse dL/da", fa, fda, 1e-6);
  check_close("forward over reverse dL/db", fb, fdb, 1e-6);
  return check_report();
}
