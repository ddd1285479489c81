// A program of several calling functions: a classical RK4 integrator of the
// Lorenz system, 100 steps of dt = 0.01, where the driver calls rk4_step()
// which calls rhs() four times and axpy() three times (all separate,
// non-inlined functions with pointer arguments and local scratch arrays).
// The derivatives of a scalar of the final state with respect to the initial
// state (3) and the parameters sigma, rho, beta are computed
//   - in reverse mode (enzyme_dup on the state and parameter arrays), and
//   - in forward mode, one directional derivative per unit vector and one
//     along a mixed direction,
// and compared with central finite differences of the plain program (and
// forward with reverse). A second driver integrates in place (the state
// array is overwritten, so its shadow carries the seed in and the gradient
// out) with the step count and dt as constants.
// Over t = 1 from (1, 1, 1) the trajectory is still in its transient, so the
// sensitivities are moderate (|J| ~ 10..100) and the finite differences are
// accurate to ~1e-8 relative (the checks allow 2e-7).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_autodiff_d(void *, ...);
double __enzyme_fwddiff(void *, ...);

static char label_[128];
#define LABEL_RK(...) (snprintf(label_, sizeof label_, __VA_ARGS__), label_)

#define NSTEPS 100
#define DT 0.01

/* p = {sigma, rho, beta} */
__attribute__((noinline)) void rhs(const double *s, const double *p,
                                   double *out) {
  out[0] = p[0] * (s[1] - s[0]);
  out[1] = s[0] * (p[1] - s[2]) - s[1];
  out[2] = s[0] * s[1] - p[2] * s[2];
}

/* y = x + a * k */
__attribute__((noinline)) void axpy(double *y, const double *x, double a,
                                    const double *k) {
  for (int i = 0; i < 3; i++)
    y[i] = x[i] + a * k[i];
}

/* One classical Runge-Kutta step, in place. */
__attribute__((noinline)) void rk4_step(double *s, const double *p,
                                        double dt) {
  double k1[3], k2[3], k3[3], k4[3], tmp[3];
  rhs(s, p, k1);
  axpy(tmp, s, 0.5 * dt, k1);
  rhs(tmp, p, k2);
  axpy(tmp, s, 0.5 * dt, k2);
  rhs(tmp, p, k3);
  axpy(tmp, s, dt, k3);
  rhs(tmp, p, k4);
  for (int i = 0; i < 3; i++)
    s[i] += dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
}

/* A scalar of the state (nonlinear, so every component matters). */
__attribute__((noinline)) double observe(const double *s) {
  return 0.01 * s[0] * s[0] + 0.5 * s[1] - sin(0.1 * s[2]);
}

/* Integrate a copy of s0 for n steps and observe the final state. */
__attribute__((noinline)) double lorenz_loss(const double *s0,
                                             const double *p, int n,
                                             double dt) {
  double s[3];
  memcpy(s, s0, sizeof s);
  for (int t = 0; t < n; t++)
    rk4_step(s, p, dt);
  return observe(s);
}

/* The same integration in place: s holds the final state afterwards. */
void lorenz_inplace(double *s, const double *p) {
  for (int t = 0; t < NSTEPS; t++)
    rk4_step(s, p, DT);
}

static const double S0[3] = {1.0, 1.0, 1.0};
static const double P0[3] = {10.0, 28.0, 8.0 / 3.0};

/* Everything as one parameter vector q = (s0[0..2], sigma, rho, beta). */
static double eval_q(const double *q) {
  return lorenz_loss(q, q + 3, NSTEPS, DT);
}

/* w . final state of the in-place integration */
static const double W[3] = {0.3, -0.2, 0.1};
static double eval_inplace_q(const double *q) {
  double s[3] = {q[0], q[1], q[2]};
  lorenz_inplace(s, q + 3);
  return W[0] * s[0] + W[1] * s[1] + W[2] * s[2];
}

static double fd(double (*f)(const double *), const double *q, int j,
                 double h) {
  double a[6], b[6];
  memcpy(a, q, sizeof a);
  memcpy(b, q, sizeof b);
  a[j] += h;
  b[j] -= h;
  return (f(a) - f(b)) / (2 * h);
}

int main(void) {
  double q[6];
  memcpy(q, S0, sizeof S0);
  memcpy(q + 3, P0, sizeof P0);

  /* Finite differences of the plain program. */
  double g_fd[6], gi_fd[6];
  for (int j = 0; j < 6; j++) {
    g_fd[j] = fd(eval_q, q, j, 1e-6);
    gi_fd[j] = fd(eval_inplace_q, q, j, 1e-6);
  }

  /* Reverse mode, the state and parameters duplicated. */
  double s0[3], p[3], ds0[3] = {0}, dp[3] = {0};
  memcpy(s0, S0, sizeof s0);
  memcpy(p, P0, sizeof p);
  double primal = lorenz_loss(s0, p, NSTEPS, DT);
  __enzyme_autodiff((void *)lorenz_loss, enzyme_dup, s0, ds0, enzyme_dup, p,
                    dp, enzyme_const, NSTEPS, enzyme_const, DT);
  for (int j = 0; j < 6; j++) {
    double got = j < 3 ? ds0[j] : dp[j - 3];
    check_close(LABEL_RK("reverse vs FD, d loss/d q[%d]", j), got, g_fd[j],
                2e-7);
  }
  check_close("reverse left the inputs alone", s0[0] + s0[1] + s0[2] + p[0] +
                                                   p[1] + p[2],
              3.0 + 10.0 + 28.0 + 8.0 / 3.0, 0);
  check_close("primal unchanged by differentiation",
              lorenz_loss(s0, p, NSTEPS, DT), primal, 0);

  /* Reverse mode accumulates into the shadows: a second call doubles them. */
  double ds2[3] = {0}, dp2[3] = {0};
  __enzyme_autodiff((void *)lorenz_loss, enzyme_dup, s0, ds2, enzyme_dup, p,
                    dp2, enzyme_const, NSTEPS, enzyme_const, DT);
  __enzyme_autodiff((void *)lorenz_loss, enzyme_dup, s0, ds2, enzyme_dup, p,
                    dp2, enzyme_const, NSTEPS, enzyme_const, DT);
  check_close("reverse accumulates, d/d rho", dp2[1], 2 * dp[1], 1e-14);
  check_close("reverse accumulates, d/d s0[2]", ds2[2], 2 * ds0[2], 1e-14);

  /* dt active too: the derivative with respect to the step size. */
  double ddt = __enzyme_autodiff_d((void *)lorenz_loss, enzyme_const, s0,
                                   enzyme_const, p, enzyme_const, NSTEPS,
                                   enzyme_out, DT);
  double h = 1e-7;
  check_close("reverse d loss/d dt vs FD", ddt,
              (lorenz_loss(s0, p, NSTEPS, DT + h) -
               lorenz_loss(s0, p, NSTEPS, DT - h)) /
                  (2 * h),
              2e-7);

  /* Forward mode: one directional derivative per unit vector. */
  for (int j = 0; j < 6; j++) {
    double ts[3] = {0}, tp[3] = {0};
    if (j < 3)
      ts[j] = 1;
    else
      tp[j - 3] = 1;
    double t = __enzyme_fwddiff((void *)lorenz_loss, enzyme_dup, s0, ts,
                                enzyme_dup, p, tp, enzyme_const, NSTEPS,
                                enzyme_const, DT);
    check_close(LABEL_RK("forward vs FD, e_%d", j), t, g_fd[j], 2e-7);
    double got = j < 3 ? ds0[j] : dp[j - 3];
    check_close(LABEL_RK("forward vs reverse, e_%d", j), t, got, 1e-10);
  }
  /* ... and along a mixed direction, against g . v and a directional FD. */
  {
    double v[6] = {0.3, -0.7, 0.2, 0.05, -0.1, 0.4};
    double ts[3] = {v[0], v[1], v[2]}, tp[3] = {v[3], v[4], v[5]};
    double t = __enzyme_fwddiff((void *)lorenz_loss, enzyme_dup, s0, ts,
                                enzyme_dup, p, tp, enzyme_const, NSTEPS,
                                enzyme_const, DT);
    double gv = 0, a[6], b[6];
    for (int j = 0; j < 6; j++) {
      gv += v[j] * (j < 3 ? ds0[j] : dp[j - 3]);
      a[j] = q[j] + 1e-6 * v[j];
      b[j] = q[j] - 1e-6 * v[j];
    }
    check_close("forward mixed direction vs g.v", t, gv, 1e-10);
    check_close("forward mixed direction vs FD", t,
                (eval_q(a) - eval_q(b)) / 2e-6, 2e-7);
  }

  /* In place: seed the state's shadow with W; afterwards it holds
     d(W . s_final)/d s_initial, and dp d(W . s_final)/dp. */
  {
    double s[3], ps[3], dsi[3], dpi[3] = {0};
    memcpy(s, S0, sizeof s);
    memcpy(ps, P0, sizeof ps);
    memcpy(dsi, W, sizeof dsi);
    __enzyme_autodiff((void *)lorenz_inplace, enzyme_dup, s, dsi, enzyme_dup,
                      ps, dpi);
    double ref[3];
    memcpy(ref, S0, sizeof ref);
    lorenz_inplace(ref, P0);
    for (int i = 0; i < 3; i++)
      check_close(LABEL_RK("in place: primal final state s[%d]", i), s[i],
                  ref[i], 1e-13);
    for (int j = 0; j < 6; j++)
      check_close(LABEL_RK("in place: reverse vs FD, d/d q[%d]", j),
                  j < 3 ? dsi[j] : dpi[j - 3], gi_fd[j], 2e-7);

    /* Forward in place: the shadow of s ends as the tangent of the final
       state; W . tangent is the directional derivative. */
    for (int j = 0; j < 6; j++) {
      double s2[3], p2[3], ts[3] = {0}, tp[3] = {0};
      memcpy(s2, S0, sizeof s2);
      memcpy(p2, P0, sizeof p2);
      if (j < 3)
        ts[j] = 1;
      else
        tp[j - 3] = 1;
      __enzyme_fwddiff((void *)lorenz_inplace, enzyme_dup, s2, ts, enzyme_dup,
                       p2, tp);
      check_close(LABEL_RK("in place: forward vs FD, e_%d", j),
                  W[0] * ts[0] + W[1] * ts[1] + W[2] * ts[2], gi_fd[j], 2e-7);
    }
  }
  return check_report();
}
