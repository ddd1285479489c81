// Registered derivatives replace differentiating the body, in the modes they
// cover: a gradient {f, aug, rev} and a forward derivative {f, fwd} for an
// iterative solver, a void function with pointer arguments and a tape-less
// aug, an inactive logging function, and a function declared to behave like
// sin. Expected values are analytic; counters show the rules were called.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static int aug_calls, rev_calls, fwd_calls, log_calls;

/* sqrt(a) by Newton: its body is not differentiated. */
__attribute__((noinline)) double solve(double a) {
  double x = a;
  for (int i = 0; i < 60; i++)
    x = 0.5 * (x + a / x);
  return x;
}
double solve_aug(double a) {
  aug_calls++;
  return solve(a);
}
double solve_rev(double a, double dret) {
  rev_calls++;
  return dret * 0.5 / sqrt(a);
}
double solve_fwd(double a, double da) {
  fwd_calls++;
  return da * 0.5 / sqrt(a);
}
void *__enzyme_register_gradient_solve[3] = {(void *)solve, (void *)solve_aug,
                                             (void *)solve_rev};
void *__enzyme_register_derivative_solve[2] = {(void *)solve,
                                               (void *)solve_fwd};

/* Pointer arguments: aug does the primal work, rev the adjoint. */
void square_into(const double *src, double *dest) { *dest = *src * *src; }
void *square_aug(const double *src, const double *dsrc, double *dest,
                 double *ddest) {
  (void)dsrc;
  (void)ddest;
  *dest = *src * *src;
  return 0;
}
void square_rev(const double *src, double *dsrc, const double *dest,
                double *ddest, void *tape) {
  (void)dest;
  (void)tape;
  *dsrc += 2 * *src * *ddest;
  *ddest = 0;
}
void *__enzyme_register_gradient_square[3] = {
    (void *)square_into, (void *)square_aug, (void *)square_rev};

void logit(double v) {
  (void)v;
  log_calls++;
}
void *__enzyme_inactivefn[1] = {(void *)logit};

double my_sin(double x) { return x; } /* wrong body on purpose */
void *__enzyme_function_like[2] = {(void *)my_sin, (void *)"sin"};

double f(double a) {
  logit(a);
  return solve(a) * a;
}
double g(double x) {
  double y;
  square_into(&x, &y);
  return 3 * y;
}
double h(double x) { return my_sin(x) * 2; }

int main(void) {
  double a = 2.0, want = 0.5 / sqrt(a) * a + sqrt(a);
  check_close("reverse through a registered gradient",
              __enzyme_autodiff((void *)f, enzyme_out, a), want, 1e-12);
  check_close("aug and rev called once", aug_calls + rev_calls, 2, 0);
  check_close("forward through a registered derivative",
              __enzyme_fwddiff((void *)f, enzyme_dup, a, 1.0), want, 1e-12);
  check_close("fwd called once", fwd_calls, 1, 0);
  check_close("the inactive function still ran", log_calls, 2, 0);
  check_close("pointer-argument gradient",
              __enzyme_autodiff((void *)g, enzyme_out, 1.5), 6 * 1.5, 1e-12);
  check_close("function_like uses sin's rule",
              __enzyme_autodiff((void *)h, enzyme_out, 0.3), 2 * cos(0.3),
              1e-12);
  return check_report();
}
