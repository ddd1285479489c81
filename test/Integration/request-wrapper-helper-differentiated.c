// A generic gradient helper differentiated again, with the objective
// passed to it by name: __enzyme_fwddiff((void *)grad, enzyme_const, f, ...)
// where grad(f, x, g) calls __enzyme_autodiff((void *)f, ...) gives a
// Hessian-vector product (forward over reverse), and __enzyme_autodiff of
// a helper that reports f's gradient's squared norm gives reverse over
// reverse; a helper passing f on to grad (report -> grad) too, a helper
// whose own request passes its parameter f on (hessianTimes(f) requesting
// grad's derivative with enzyme_const f), a recursive helper, and two
// objectives through the same helpers. (Found by probe44: refused, "a
// function pointer whose value is known only at run time".) Expected
// values are analytic: f1(x) = x0^2 x1 + sin x1 has Hessian
// [[2 x1, 2 x0], [2 x0, -sin x1]]; f2(x) = exp(x0) x1^2 has Hessian
// [[e^x0 x1^2, 2 e^x0 x1], [2 e^x0 x1, 2 e^x0]].
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

typedef double (*Objective)(const double *);

static double f1(const double *x) { return x[0] * x[0] * x[1] + sin(x[1]); }
static double f2(const double *x) { return exp(x[0]) * x[1] * x[1]; }

static void grad(Objective f, const double *x, double *g) {
  g[0] = g[1] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
}

static void report(Objective f, const double *x, double *g) {
  grad(f, x, g);
}

/// grad, reached through a recursion on the depth (as a multilevel
/// method might call itself): its copy for f calls the copy.
static void gradAtDepth(Objective f, const double *x, double *g, int depth) {
  if (depth > 0) {
    gradAtDepth(f, x, g, depth - 1);
    return;
  }
  grad(f, x, g);
}

/// H v by forward over reverse, for the objective its caller passes: the
/// request passes the helper's own parameter on (as a Newton-CG solver
/// writes it once).
static void hessianTimes(Objective f, const double *x, const double *v,
                         double *Hv) {
  double g[2];
  Hv[0] = Hv[1] = 0;
  __enzyme_fwddiff((void *)grad, enzyme_const, f, enzyme_dup, x, v,
                   enzyme_dup, g, Hv);
}

/// |grad f(x)|^2 / 2, whose gradient is H grad f.
static double halfGradNorm(Objective f, const double *x) {
  double g[2];
  grad(f, x, g);
  return 0.5 * (g[0] * g[0] + g[1] * g[1]);
}

static void hessian1(const double *x, double H[2][2]) {
  H[0][0] = 2 * x[1];
  H[0][1] = H[1][0] = 2 * x[0];
  H[1][1] = -sin(x[1]);
}

static void hessian2(const double *x, double H[2][2]) {
  double e = exp(x[0]);
  H[0][0] = e * x[1] * x[1];
  H[0][1] = H[1][0] = 2 * e * x[1];
  H[1][1] = 2 * e;
}

static void checkObjective(const char *name, Objective f,
                           void (*hessian)(const double *, double[2][2]),
                           const double *x, int which) {
  double H[2][2], g[2], Hv[2], v[2] = {0.3, -0.7}, want[2];
  char what[80];
  hessian(x, H);
  for (int i = 0; i < 2; i++)
    want[i] = H[i][0] * v[0] + H[i][1] * v[1];
  // Forward over reverse, through grad and through report.
  for (int via = 0; via < 2; via++) {
    Hv[0] = Hv[1] = 0;
    if (which == 1 && via == 0)
      __enzyme_fwddiff((void *)grad, enzyme_const, f1, enzyme_dup, x, v,
                       enzyme_dup, g, Hv);
    else if (which == 1)
      __enzyme_fwddiff((void *)report, enzyme_const, f1, enzyme_dup, x, v,
                       enzyme_dup, g, Hv);
    else if (via == 0)
      __enzyme_fwddiff((void *)grad, enzyme_const, f2, enzyme_dup, x, v,
                       enzyme_dup, g, Hv);
    else
      __enzyme_fwddiff((void *)report, enzyme_const, f2, enzyme_dup, x, v,
                       enzyme_dup, g, Hv);
    for (int i = 0; i < 2; i++) {
      snprintf(what, sizeof what, "%s H v [%d] via %s", name, i,
               via ? "report" : "grad");
      check_close(what, Hv[i], want[i], 1e-10);
    }
  }
  // Through a recursive helper (review44 F7: refused, the original kept
  // for its call of itself).
  Hv[0] = Hv[1] = 0;
  if (which == 1)
    __enzyme_fwddiff((void *)gradAtDepth, enzyme_const, f1, enzyme_dup, x, v,
                     enzyme_dup, g, Hv, enzyme_const, 2);
  else
    __enzyme_fwddiff((void *)gradAtDepth, enzyme_const, f2, enzyme_dup, x, v,
                     enzyme_dup, g, Hv, enzyme_const, 2);
  for (int i = 0; i < 2; i++) {
    snprintf(what, sizeof what, "%s H v [%d] via gradAtDepth", name, i);
    check_close(what, Hv[i], want[i], 1e-10);
  }
  // Through a helper whose request passes its parameter on.
  hessianTimes(f, x, v, Hv);
  for (int i = 0; i < 2; i++) {
    snprintf(what, sizeof what, "%s H v [%d] via hessianTimes", name, i);
    check_close(what, Hv[i], want[i], 1e-10);
  }
  // Reverse over reverse: the gradient of |grad f|^2 / 2 is H grad f.
  double dx[2] = {0, 0}, gf[2];
  grad(f, x, gf);
  if (which == 1)
    __enzyme_autodiff((void *)halfGradNorm, enzyme_const, f1, enzyme_dup, x,
                      dx);
  else
    __enzyme_autodiff((void *)halfGradNorm, enzyme_const, f2, enzyme_dup, x,
                      dx);
  for (int i = 0; i < 2; i++) {
    snprintf(what, sizeof what, "%s H grad [%d]", name, i);
    check_close(what, dx[i], H[i][0] * gf[0] + H[i][1] * gf[1], 1e-10);
  }
}

int main(void) {
  const double x[2] = {0.5, 1.2};
  checkObjective("f1", f1, hessian1, x, 1);
  checkObjective("f2", f2, hessian2, x, 2);
  return check_report();
}
