// Enzyme's fixed-point entry point (<enzyme/fixed_point.h>, found through
// -fplugin alone as Enzyme's users build):
//   __enzyme_fixed_point(step, enzyme_fp_state, z, bytes, [markers...],
//                        args...)
// runs `int64_t i = 0; while (step(i++, args...));`, and Tapestry
// differentiates those iterations, in reverse and forward mode. Was an
// error ("Tapestry does not support it yet"). Expected derivatives are
// those of the fixed points, analytic:
// - a contraction u = u/2 + p: u* = 2p, du*/dp = 2, and the converged
//   state does not depend on the initial guess (its adjoint after the
//   reverse is 0, within the iteration's tolerance);
// - Newton for z = cos(a z): dz*/da = -z sin(a z) / (1 + a sin(a z));
// - Newton for sqrt(c): 1 / (2 sqrt(c));
// - Jacobi's iteration for A u = b (2x2, diagonally dominant) with a
//   checkpoint region and a maximum number of adjoint iterations, which
//   have nothing to steer: d(w.u*)/db = A^-T w;
// - a loop marked from inside with __enzyme_set_fixed_point.
// RUN: %clang_fplugin -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang_fplugin -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang_fplugin -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang_fplugin -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang_enzyme -O2 -g %s -lm -o %tg && %tg | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <enzyme/fixed_point.h>
#include <math.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static int halve(int64_t i, double *u, const double *p) {
  (void)i;
  double old = *u;
  *u = 0.5 * *u + *p;
  return (old - *u) * (old - *u) > 1e-30;
}

static double contraction(double *u, double *p) {
  __enzyme_fixed_point((void *)halve, enzyme_fp_state, u,
                       (int64_t)sizeof(double), enzyme_fp_reduction, 1e-30,
                       u, p);
  return *u;
}

/* One Newton step for z = cos(a z); false once converged. */
static int cos_step(int64_t i, double *z, const double *a) {
  double f = *z - cos(*a * *z);
  double df = 1 + *a * sin(*a * *z);
  double next = *z - f / df;
  int more = fabs(next - *z) > 1e-15 && i < 100;
  *z = next;
  return more;
}

static double solve_cos(double a) {
  double z = 0.5;
  __enzyme_fixed_point((void *)cos_step, enzyme_fp_state, &z, sizeof z, &z,
                       &a);
  return z;
}

static int sqrt_step(int64_t i, double *x, double c) {
  (void)i;
  double old = *x;
  *x = 0.5 * (*x + c / *x);
  return fabs(old - *x) > 1e-15 * fabs(*x);
}

/* The step takes c by value: a double passed through `...`. */
static double newton_sqrt(double c) {
  double x = 1;
  __enzyme_fixed_point((void *)sqrt_step, enzyme_fp_state, &x, sizeof x, &x,
                       c);
  return x;
}

/* Jacobi for [[4 1] [1 3]] u = b. */
static int jacobi(int64_t i, double *u, const double *b, double *scratch) {
  (void)i;
  scratch[0] = (b[0] - u[1]) / 4;
  scratch[1] = (b[1] - u[0]) / 3;
  double change = fabs(scratch[0] - u[0]) + fabs(scratch[1] - u[1]);
  u[0] = scratch[0];
  u[1] = scratch[1];
  return change > 1e-16;
}

static double weighted_solution(const double *b, const double *w) {
  double u[2] = {0, 0}, scratch[2];
  __enzyme_fixed_point((void *)jacobi, enzyme_fp_state, u, sizeof u,
                       enzyme_checkpoint_region, scratch, sizeof scratch,
                       enzyme_fp_max_iters, (int64_t)50, u, b, scratch);
  return w[0] * u[0] + w[1] * u[1];
}

/* The same iteration written as a loop and marked from inside. */
static double marked_loop(const double *b, const double *w) {
  double u[2] = {0, 0}, scratch[2];
  int64_t i = 0;
  do
    __enzyme_set_fixed_point(-1.0, -1, 0, u, sizeof u);
  while (jacobi(i++, u, b, scratch));
  return w[0] * u[0] + w[1] * u[1];
}

int main(void) {
  for (double p = -1.0; p <= 2.0; p += 1.5) {
    double u = 0, du = 1, dp = 0, pp = p;
    /* The caller's seed: d contraction = 1, plus 1 on the state after. */
    __enzyme_autodiff((void *)contraction, &u, &du, &pp, &dp);
    check_close("contraction u*", u, 2 * p, 1e-12);
    check_close("contraction d/dp", dp, 2 * (1 + 1), 1e-12);
    check_close("contraction initial guess", du, 0, 1e-12);
    double u2 = 0, du2 = 0, dp2 = 1;
    check_close("contraction forward",
                __enzyme_fwddiff((void *)contraction, &u2, &du2, &pp, &dp2),
                2, 1e-12);
  }
  for (double a = 0.25; a <= 1.5; a += 0.625) {
    double z = solve_cos(a);
    check_close("z = cos(a z)", z, cos(a * z), 1e-14);
    double want = -z * sin(a * z) / (1 + a * sin(a * z));
    check_close("dz/da reverse", __enzyme_autodiff((void *)solve_cos, a),
                want, 1e-10);
    check_close("dz/da forward", __enzyme_fwddiff((void *)solve_cos, a, 1.0),
                want, 1e-10);
  }
  for (double c = 0.5; c <= 9; c *= 3) {
    double want = 0.5 / sqrt(c);
    check_close("d sqrt reverse", __enzyme_autodiff((void *)newton_sqrt, c),
                want, 1e-12);
    check_close("d sqrt forward",
                __enzyme_fwddiff((void *)newton_sqrt, c, 1.0), want, 1e-12);
  }
  /* A^-T w with A = [[4 1] [1 3]] (symmetric), det 11. */
  double b[2] = {1, 2}, w[2] = {0.5, -2};
  double want[2] = {(3 * w[0] - w[1]) / 11, (-w[0] + 4 * w[1]) / 11};
  double db[2] = {0, 0};
  __enzyme_autodiff((void *)weighted_solution, enzyme_dup, b, db,
                    enzyme_const, w);
  check_close("jacobi d/db0", db[0], want[0], 1e-12);
  check_close("jacobi d/db1", db[1], want[1], 1e-12);
  double mb[2] = {0, 0};
  __enzyme_autodiff((void *)marked_loop, enzyme_dup, b, mb, enzyme_const, w);
  check_close("marked d/db0", mb[0], want[0], 1e-12);
  check_close("marked d/db1", mb[1], want[1], 1e-12);
  double tb[2] = {1, 0};
  check_close("jacobi forward",
              __enzyme_fwddiff((void *)weighted_solution, enzyme_dup, b, tb,
                               enzyme_const, w),
              want[0], 1e-12);
  return check_report();
}
