// A call to a function with registered rules whose inputs carry no
// derivative (a constant array, and a local the call only writes) has
// outputs of derivative 0: as in Enzyme, no rule is called for it, so
// rules written as Enzyme users write them (dereferencing every shadow)
// never see the NULL shadow of the constant array. The same rules still
// serve the calls whose inputs are active, and a local that held an active
// value keeps its rule call. Expected derivatives are analytic:
// obj(x, s) = (e^x0 + e^x1) s, obj2(x, s) = (e^(s x0) + e^(s x1)) s.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static int forward_rule_calls, reverse_rule_calls;

__attribute__((noinline)) void sum_exp(const double *x, double *out) {
  *out = exp(x[0]) + exp(x[1]);
}
// Rules as Enzyme users write them: no NULL checks.
void sum_exp_fwd(const double *x, const double *dx, double *out,
                 double *dout) {
  ++forward_rule_calls;
  *out = exp(x[0]) + exp(x[1]);
  *dout = exp(x[0]) * dx[0] + exp(x[1]) * dx[1];
}
void *sum_exp_aug(const double *x, double *dx, double *out, double *dout) {
  (void)dx;
  (void)dout;
  *out = exp(x[0]) + exp(x[1]);
  return 0;
}
void sum_exp_rev(const double *x, double *dx, double *out, double *dout,
                 void *tape) {
  (void)out;
  (void)tape;
  ++reverse_rule_calls;
  dx[0] += exp(x[0]) * *dout;
  dx[1] += exp(x[1]) * *dout;
  *dout = 0;
}
void *__enzyme_register_derivative_sum_exp[2] = {(void *)sum_exp,
                                                 (void *)sum_exp_fwd};
void *__enzyme_register_gradient_sum_exp[3] = {
    (void *)sum_exp, (void *)sum_exp_aug, (void *)sum_exp_rev};

// x is constant and o is only written by the call: no rule.
double obj(const double *x, double s) {
  double o;
  sum_exp(x, &o);
  return o * s;
}

// The inputs are scaled by the active s: the rules run.
double obj2(const double *x, double s) {
  double y[2] = {s * x[0], s * x[1]};
  double o;
  sum_exp(y, &o);
  return o * s;
}

int main(void) {
  double x[2] = {0.1, 0.2};
  double s = 0.5;
  double e = exp(x[0]) + exp(x[1]);
  check_close("fwd obj d/ds",
              __enzyme_fwddiff((void *)obj, enzyme_const, x, enzyme_dup, s,
                               1.0),
              e, 1e-12);
  check_close("rev obj d/ds",
              __enzyme_autodiff((void *)obj, enzyme_const, x, enzyme_out, s),
              e, 1e-12);
  check_close("no rule for inputs without derivatives",
              forward_rule_calls + reverse_rule_calls, 0, 0);

  double e2 = exp(s * x[0]) + exp(s * x[1]);
  double d2 = e2 + s * (x[0] * exp(s * x[0]) + x[1] * exp(s * x[1]));
  check_close("fwd obj2 d/ds",
              __enzyme_fwddiff((void *)obj2, enzyme_const, x, enzyme_dup, s,
                               1.0),
              d2, 1e-12);
  check_close("rev obj2 d/ds",
              __enzyme_autodiff((void *)obj2, enzyme_const, x, enzyme_out, s),
              d2, 1e-12);
  check_close("rules for active inputs", forward_rule_calls, 1, 0);
  check_close("reverse rule for active inputs", reverse_rule_calls, 1, 0);
  return check_report();
}
