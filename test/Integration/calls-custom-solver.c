// Registered derivatives for an iterative solver whose body must not be
// differentiated: x = cubic_solve(a, b) solves x^3 + a x = b (a > 0) by a
// Newton iteration that runs until convergence from an initial guess made by
// integer manipulation of b's bits (differentiating that body would be an
// error: a double reinterpreted as an integer). By the implicit function
// theorem dx/da = -x / (3x^2 + a), dx/db = 1 / (3x^2 + a).
//   - __enzyme_register_gradient_cubic_solve (aug returning {tape, x}, rev
//     returning the two adjoints) and __enzyme_register_derivative_cubic_solve
//     (forward) for the scalar solver, called directly, inside a loop of a
//     non-inlined helper (deep in other code) and with one argument constant;
//   - a vector version solve_all(a, b, x, n) with pointer arguments: aug
//     returns a malloc'd tape that rev frees, rev accumulates into da, db and
//     consumes dx; the forward rule writes the tangents of x.
// Counters show the rules ran (once per call site execution) and that the
// solver's body only ran as a primal. Expected values come from the
// implicit-function formulas, cross-checked against central finite
// differences of the plain solver.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// Without the registrations the body would be differentiated, and cannot be:
// RUN: not %clang -O0 -g -DNO_REGISTRATION -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck --check-prefix=NOREG %s
// NOREG: error: tapestry: cannot differentiate '{{use1|cubic_solve}}'
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
void __enzyme_autodiff_v(void *, ...);
typedef struct {
  double da, db;
} AB;
AB __enzyme_autodiff_ab(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_v(void *, ...);

static char label_[128];
#define LBL(...) (snprintf(label_, sizeof label_, __VA_ARGS__), label_)

static int body_calls, aug_calls, rev_calls, fwd_calls;
static int vbody_calls, vaug_calls, vrev_calls, vfwd_calls, live_tapes;

/* ---- the solver: not differentiable as written ---- */
__attribute__((noinline)) double cubic_solve(double a, double b) {
  body_calls++;
  /* |x| <= cbrt(|b|); guess above it: a bit-level cube root of |b| + 1. */
  double t = fabs(b) + 1.0;
  uint64_t u;
  memcpy(&u, &t, sizeof u);
  u = u / 3 + 0x2AA0000000000000ull;
  double g;
  memcpy(&g, &u, sizeof g);
  double x = copysign(1.5 * g + 1.0, b), step;
  int it = 0;
  do { /* from above the root on the convex side: monotone convergence */
    step = (x * x * x + a * x - b) / (3 * x * x + a);
    x -= step;
  } while (fabs(step) > 1e-15 * (1 + fabs(x)) && ++it < 200);
  return x;
}

typedef struct {
  void *tape;
  double x;
} CubicAug;
CubicAug cubic_aug(double a, double b) {
  aug_calls++;
  double *tp = malloc(sizeof *tp);
  *tp = cubic_solve(a, b);
  live_tapes++;
  return (CubicAug){tp, *tp};
}
AB cubic_rev(double a, double b, double dx, void *tape) {
  (void)b;
  rev_calls++;
  double x = *(double *)tape;
  free(tape);
  live_tapes--;
  double den = 3 * x * x + a;
  return (AB){-x / den * dx, dx / den};
}
double cubic_fwd(double a, double da, double b, double db) {
  fwd_calls++;
  double x = cubic_solve(a, b);
  return (db - x * da) / (3 * x * x + a);
}
#ifndef NO_REGISTRATION
void *__enzyme_register_gradient_cubic_solve[3] = {
    (void *)cubic_solve, (void *)cubic_aug, (void *)cubic_rev};
void *__enzyme_register_derivative_cubic_solve[2] = {(void *)cubic_solve,
                                                     (void *)cubic_fwd};
#endif

/* ---- users ---- */
double use1(double a, double b) {
  double x = cubic_solve(a, b);
  return x * x + a;
}

__attribute__((noinline)) double inner(const double *a, double b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sin(cubic_solve(a[i], b + 0.5 * i));
  return s;
}
double deep(const double *a, double b, int n) { return 2 * inner(a, b, n); }

double half_const(double a, double b) { return exp(cubic_solve(a, b)); }

/* ---- vector solver with pointer arguments ---- */
__attribute__((noinline)) void solve_all(const double *a, const double *b,
                                         double *x, int n) {
  vbody_calls++;
  for (int i = 0; i < n; i++) {
    body_calls--; /* cubic_solve's counter counts scalar uses only */
    x[i] = cubic_solve(a[i], b[i]);
  }
}
void *solve_all_aug(const double *a, const double *da, const double *b,
                    const double *db, double *x, double *dx, int n) {
  (void)da;
  (void)db;
  (void)dx;
  vaug_calls++;
  solve_all(a, b, x, n);
  double *tp = malloc(n * sizeof *tp);
  memcpy(tp, x, n * sizeof *tp);
  live_tapes++;
  return tp;
}
void solve_all_rev(const double *a, double *da, const double *b, double *db,
                   double *x, double *dx, int n, void *tape) {
  (void)b;
  (void)x;
  vrev_calls++;
  const double *xs = tape;
  for (int i = 0; i < n; i++) {
    double den = 3 * xs[i] * xs[i] + a[i];
    da[i] += -xs[i] / den * dx[i];
    db[i] += dx[i] / den;
    dx[i] = 0;
  }
  free(tape);
  live_tapes--;
}
void solve_all_fwd(const double *a, const double *da, const double *b,
                   const double *db, double *x, double *dx, int n) {
  vfwd_calls++;
  solve_all(a, b, x, n);
  for (int i = 0; i < n; i++)
    dx[i] = (db[i] - x[i] * da[i]) / (3 * x[i] * x[i] + a[i]);
}
void *__enzyme_register_gradient_solve_all[3] = {
    (void *)solve_all, (void *)solve_all_aug, (void *)solve_all_rev};
void *__enzyme_register_derivative_solve_all[2] = {(void *)solve_all,
                                                   (void *)solve_all_fwd};

#define NV 4
/* sum_i w_i x_i^2 with x from solve_all */
double vloss(const double *a, const double *b) {
  double x[NV];
  solve_all(a, b, x, NV);
  double s = 0;
  for (int i = 0; i < NV; i++)
    s += (1.0 + i) * x[i] * x[i];
  return s;
}

static double dx_da(double a, double x) { return -x / (3 * x * x + a); }
static double dx_db(double a, double x) { return 1 / (3 * x * x + a); }

int main(void) {
  /* The solver is right, and the IFT formulas match central differences of
     the plain solver (so the expected values below are trustworthy). */
  const double as[3] = {0.5, 2.0, 7.0}, bs[3] = {3.0, -1.25, 40.0};
  for (int i = 0; i < 3; i++) {
    double a = as[i], b = bs[i], x = cubic_solve(a, b), h = 1e-6;
    check_close(LBL("residual of the solve (%g, %g)", a, b),
                x * x * x + a * x - b, 0, 1e-13 * (1 + fabs(b)));
    check_close(LBL("IFT dx/da vs FD (%g, %g)", a, b), dx_da(a, x),
                (cubic_solve(a + h, b) - cubic_solve(a - h, b)) / (2 * h),
                1e-8);
    check_close(LBL("IFT dx/db vs FD (%g, %g)", a, b), dx_db(a, x),
                (cubic_solve(a, b + h) - cubic_solve(a, b - h)) / (2 * h),
                1e-8);
  }

  /* use1 = x^2 + a, reverse and forward */
  for (int i = 0; i < 3; i++) {
    double a = as[i], b = bs[i], x = cubic_solve(a, b);
    int b0 = body_calls, a0 = aug_calls, r0 = rev_calls;
    AB g = __enzyme_autodiff_ab((void *)use1, enzyme_out, a, enzyme_out, b);
    check_close(LBL("reverse use1 d/da (%g, %g)", a, b), g.da,
                2 * x * dx_da(a, x) + 1, 1e-12);
    check_close(LBL("reverse use1 d/db (%g, %g)", a, b), g.db,
                2 * x * dx_db(a, x), 1e-12);
    check_close("reverse: aug called once", aug_calls - a0, 1, 0);
    check_close("reverse: rev called once", rev_calls - r0, 1, 0);
    check_close("reverse: the body ran once (as aug's primal)",
                body_calls - b0, 1, 0);
    int f0 = fwd_calls;
    check_close(LBL("forward use1 along (1, 0) (%g, %g)", a, b),
                __enzyme_fwddiff((void *)use1, enzyme_dup, a, 1.0, enzyme_dup,
                                 b, 0.0),
                2 * x * dx_da(a, x) + 1, 1e-12);
    check_close(LBL("forward use1 along (0.5, -2) (%g, %g)", a, b),
                __enzyme_fwddiff((void *)use1, enzyme_dup, a, 0.5, enzyme_dup,
                                 b, -2.0),
                0.5 * (2 * x * dx_da(a, x) + 1) - 2 * (2 * x * dx_db(a, x)),
                1e-12);
    check_close("forward: fwd called once per request (2 requests)", fwd_calls - f0, 2, 0);
  }

  /* deep: 2 * sum sin(x_i), x_i = solve(a_i, b + i/2), in a loop of a
     non-inlined helper */
  {
    double a[5] = {0.4, 1.0, 2.5, 0.8, 5.0}, da[5] = {0}, b = 0.7;
    int a0 = aug_calls, r0 = rev_calls;
    double db = __enzyme_autodiff((void *)deep, enzyme_dup, a, da,
                                  enzyme_out, b, enzyme_const, 5);
    double want_db = 0;
    for (int i = 0; i < 5; i++) {
      double x = cubic_solve(a[i], b + 0.5 * i);
      check_close(LBL("reverse deep d/da[%d]", i), da[i],
                  2 * cos(x) * dx_da(a[i], x), 1e-12);
      want_db += 2 * cos(x) * dx_db(a[i], x);
    }
    check_close("reverse deep d/db", db, want_db, 1e-12);
    check_close("reverse deep: aug once per iteration", aug_calls - a0, 5, 0);
    check_close("reverse deep: rev once per iteration", rev_calls - r0, 5, 0);
    check_close("reverse deep: every tape freed", live_tapes, 0, 0);

    double ta[5] = {0, 0, 1, 0, 0};
    double x2 = cubic_solve(a[2], b + 1.0);
    int f0 = fwd_calls;
    check_close("forward deep along a[2]",
                __enzyme_fwddiff((void *)deep, enzyme_dup, a, ta, enzyme_dup,
                                 b, 0.0, enzyme_const, 5),
                2 * cos(x2) * dx_da(a[2], x2), 1e-12);
    check_close("forward deep: fwd once per iteration", fwd_calls - f0, 5, 0);
    double t0[5] = {0};
    check_close("forward deep along b",
                __enzyme_fwddiff((void *)deep, enzyme_dup, a, t0, enzyme_dup,
                                 b, 1.0, enzyme_const, 5),
                want_db, 1e-12);
  }

  /* one argument constant at the request */
  {
    double a = 1.5, b = 2.0, x = cubic_solve(a, b);
    check_close("reverse half_const, a const, d/db",
                __enzyme_autodiff((void *)half_const, enzyme_const, a,
                                  enzyme_out, b),
                exp(x) * dx_db(a, x), 1e-12);
    check_close("reverse half_const, b const, d/da",
                __enzyme_autodiff((void *)half_const, enzyme_out, a,
                                  enzyme_const, b),
                exp(x) * dx_da(a, x), 1e-12);
    check_close("forward half_const, b const, d/da",
                __enzyme_fwddiff((void *)half_const, enzyme_dup, a, 1.0,
                                 enzyme_const, b),
                exp(x) * dx_da(a, x), 1e-12);
  }

  /* vector solver with pointer arguments */
  {
    double a[NV] = {0.5, 1.0, 3.0, 0.2}, b[NV] = {1.0, -2.0, 0.3, 5.0};
    double da[NV] = {0}, db[NV] = {0}, x[NV];
    solve_all(a, b, x, NV);
    int v0 = vbody_calls;
    __enzyme_autodiff_v((void *)vloss, enzyme_dup, a, da, enzyme_dup, b, db);
    for (int i = 0; i < NV; i++) {
      check_close(LBL("reverse vloss d/da[%d]", i), da[i],
                  2 * (1.0 + i) * x[i] * dx_da(a[i], x[i]), 1e-12);
      check_close(LBL("reverse vloss d/db[%d]", i), db[i],
                  2 * (1.0 + i) * x[i] * dx_db(a[i], x[i]), 1e-12);
    }
    check_close("reverse vloss: aug and rev once each",
                vaug_calls * 10 + vrev_calls, 11, 0);
    check_close("reverse vloss: the body ran once (in aug)",
                vbody_calls - v0, 1, 0);
    check_close("reverse vloss: tape freed", live_tapes, 0, 0);

    double ta[NV] = {0, 1, 0, 0}, tb[NV] = {0, 0, 2, 0};
    check_close("forward vloss along a[1] + 2 b[2]",
                __enzyme_fwddiff((void *)vloss, enzyme_dup, a, ta, enzyme_dup,
                                 b, tb),
                2 * 2.0 * x[1] * dx_da(a[1], x[1]) +
                    2 * (2 * 3.0 * x[2] * dx_db(a[2], x[2])),
                1e-12);
    check_close("forward vloss: fwd called once", vfwd_calls, 1, 0);

    /* solve_all itself as the differentiated function, forward: the shadow
       of x receives the tangents */
    double xx[NV], dxx[NV];
    __enzyme_fwddiff_v((void *)solve_all, enzyme_dup, a, ta, enzyme_dup, b,
                       tb, enzyme_dup, xx, dxx, enzyme_const, NV);
    for (int i = 0; i < NV; i++) {
      check_close(LBL("forward solve_all primal x[%d]", i), xx[i], x[i],
                  1e-15);
      check_close(LBL("forward solve_all tangent x[%d]", i), dxx[i],
                  ta[i] * dx_da(a[i], x[i]) + tb[i] * dx_db(a[i], x[i]),
                  1e-12);
    }
    /* ... and reverse: the seed in dx is consumed, da/db accumulate */
    double sa[NV] = {1, 1, 1, 1}, sb[NV] = {0}, sx[NV] = {1, 0, -1, 2};
    __enzyme_autodiff_v((void *)solve_all, enzyme_dup, a, sa, enzyme_dup, b,
                        sb, enzyme_dup, xx, sx, enzyme_const, NV);
    const double seed[NV] = {1, 0, -1, 2};
    for (int i = 0; i < NV; i++) {
      check_close(LBL("reverse solve_all d/da[%d] accumulated", i), sa[i],
                  1 + seed[i] * dx_da(a[i], x[i]), 1e-12);
      check_close(LBL("reverse solve_all d/db[%d]", i), sb[i],
                  seed[i] * dx_db(a[i], x[i]), 1e-12);
      check_close(LBL("reverse solve_all seed consumed [%d]", i), sx[i], 0,
                  0);
    }
    check_close("all tapes freed", live_tapes, 0, 0);
  }
  return check_report();
}
