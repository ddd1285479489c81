// The finite-difference checker of the runtime (tapestry/gradcheck.h), as a
// user's own test uses it: Tapestry's gradient of Rosenbrock's function and
// forward-mode Jacobian columns agree; a hand-written gradient with a wrong
// component and a Jacobian with a wrong entry are reported by index; a kink
// within the stencil is "uncertain", not a mismatch; a sample checks that
// many components; invalid arguments return -1. Expected values here are
// the analytic derivatives; the checker itself is what is under test.
// RUN: %clang -O0 %s %tapestry_rt -lm -o %t0 && %t0 2>%t0.err | FileCheck %s && FileCheck %s --check-prefix=REPORT < %t0.err
// RUN: %clang -O2 %s %tapestry_rt -lm -o %t2 && %t2 2>%t2.err | FileCheck %s && FileCheck %s --check-prefix=REPORT < %t2.err
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// REPORT: tapestry_check_gradient: 4 of 4 entries checked, 0 mismatches, 0 uncertain
// REPORT: tapestry_check_gradient: 4 of 4 entries checked, 1 mismatch, 0 uncertain
// REPORT-NEXT: entry derivative finite diff.
// REPORT-NEXT: [2] MISMATCH
// REPORT-NEXT: largest error {{.*}} at [2]
// REPORT: tapestry_check_jacobian: 6 of 6 entries checked, 0 mismatches
// REPORT: tapestry_check_jacobian: 6 of 6 entries checked, 1 mismatch
// REPORT: dy[2]/dx[1] MISMATCH
// REPORT-NEXT: largest error {{.*}} at dy[2]/dx[1]
// REPORT: tapestry_check_gradient: 1 of 1 entries checked, 0 mismatches, 1 uncertain
// REPORT: [0] uncertain
#include "Inputs/check.h"
/* check.h compares numbers; these are yes/no facts about a report. */
static void check_true(const char *what, int ok) {
  if (!ok)
    check_failures++;
  printf("%s %s\n", ok ? "PASS" : "FAIL", what);
}
#include <tapestry/tapestry.h>

/* Rosenbrock in 4 dimensions. */
static double rosen(const double *x) {
  double s = 0;
  for (int i = 0; i < 3; i++) {
    double a = x[i + 1] - x[i] * x[i], b = 1 - x[i];
    s += 100 * a * a + b * b;
  }
  return s;
}
static double rosenCtx(const double *x, void *ctx) {
  (void)ctx;
  return rosen(x);
}

/* y = (x0 x1, sin x0, x1^3) */
static void vec(const double *x, double *y) {
  y[0] = x[0] * x[1];
  y[1] = sin(x[0]);
  y[2] = x[1] * x[1] * x[1];
}
static void vecCtx(const double *x, double *y, void *ctx) {
  (void)ctx;
  vec(x, y);
}

static double kink(const double *x, void *ctx) {
  (void)ctx;
  return fabs(x[0]);
}

/* sum of squares in n dimensions, n given by ctx */
static double sumsq(const double *x, void *ctx) {
  int n = *(int *)ctx;
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

int main(void) {
  double x[4] = {-1.2, 1.0, 0.5, 2.0}, g[4] = {0, 0, 0, 0};
  __enzyme_autodiff((void *)rosen, enzyme_dup, x, g);
  struct tapestry_check_result r;
  check_true("AD gradient agrees",
             tapestry_check_gradient(rosenCtx, NULL, 4, x, g, NULL, &r) == 0);
  check_true("all checked", r.checked == 4 && r.mismatches == 0);
  check_true("worst error small", r.worst >= 0 && r.worst_error < 1e-8);

  /* A hand-written gradient with component 2 wrong (sign of the b term). */
  double h[4];
  for (int i = 0; i < 4; i++)
    h[i] = g[i];
  h[2] += 4 * (1 - x[2]);
  check_true("wrong component found",
             tapestry_check_gradient(rosenCtx, NULL, 4, x, h, NULL, &r) == 1);
  check_true("one mismatch", r.mismatches == 1 && r.worst == 2);

  /* Jacobian from two forward-mode columns, row-major 3 x 2. */
  double xv[2] = {0.7, -1.3}, J[6], col[3], y[3];
  for (int j = 0; j < 2; j++) {
    double dx[2] = {j == 0, j == 1};
    __enzyme_fwddiff((void *)vec, enzyme_dup, xv, dx, enzyme_dup, y, col);
    for (int i = 0; i < 3; i++)
      J[i * 2 + j] = col[i];
  }
  check_close("J analytic 00", J[0], xv[1], 1e-14);
  check_close("J analytic 21", J[5], 3 * xv[1] * xv[1], 1e-14);
  check_true("AD Jacobian agrees",
             tapestry_check_jacobian(vecCtx, NULL, 2, 3, xv, J, NULL, &r) == 0);
  J[5] *= 1.01;
  check_true("wrong entry found",
             tapestry_check_jacobian(vecCtx, NULL, 2, 3, xv, J, NULL, &r) == 1);
  check_true("worst entry is dy2/dx1", r.worst == 5);

  /* |x| at x = 5e-4 with h = 1e-3: the stencil straddles the kink. */
  double xk[1] = {5e-4}, gk[1] = {1};
  check_true("kink is not a mismatch",
             tapestry_check_gradient(kink, NULL, 1, xk, gk, NULL, &r) == 0);
  check_true("kink is uncertain", r.uncertain == 1);

  /* A sample of 3 of 50 components, quiet; the same seed, the same. */
  enum { N = 50 };
  int n = N;
  double xs[N], gs[N];
  for (int i = 0; i < N; i++)
    xs[i] = 0.1 * i - 2, gs[i] = 2 * xs[i];
  gs[17] = 0; /* wrong, found only if sampled */
  struct tapestry_check_options quiet = {0};
  quiet.quiet = 1;
  quiet.samples = 3;
  int found = 0;
  for (unsigned seed = 0; seed < 40; seed++) {
    quiet.seed = seed;
    int bad = tapestry_check_gradient(sumsq, &n, N, xs, gs, &quiet, &r);
    check_true("sample size", r.checked == 3);
    struct tapestry_check_result again;
    tapestry_check_gradient(sumsq, &n, N, xs, gs, &quiet, &again);
    check_true("same seed, same sample", again.mismatches == r.mismatches &&
                                             again.worst == r.worst);
    found += bad;
  }
  /* 40 samples of 3 of 50 miss component 17 with probability 0.94^40 < 0.1;
   * the draws are deterministic, so this is not flaky. */
  check_true("the wrong component is sampled sometimes", found > 0);
  quiet.samples = 0;
  check_true("full check finds it",
             tapestry_check_gradient(sumsq, &n, N, xs, gs, &quiet, &r) == 1 &&
                 r.worst == 17);

  check_true("null function", tapestry_check_gradient(NULL, NULL, 4, x, g,
                                                      &quiet, NULL) == -1);
  check_true("n = 0", tapestry_check_gradient(rosenCtx, NULL, 0, x, g, &quiet,
                                              NULL) == -1);
  return check_report();
}
