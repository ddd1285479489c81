// enzyme_runtime_activity with Enzyme's idiom for data that stays
// constant inside a shadow struct: the shadow's member points to the
// primal's own array (d.obs = obs). With the marker, pointers read
// through the arguments are tested at run time, and one equal to its
// shadow is constant: the reverse adds nothing into obs, the forward reads
// no tangent from it. Without the marker both were wrong, silently (obs
// moved by the adjoints, the tangent read obs as its own derivative); top
// level, a shadow equal to its value still stops the program.
// J(w) = sum_i (w_i^2 - obs_i)^2, dJ/dw_i = 4 w_i (w_i^2 - obs_i).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_runtime_activity;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef struct {
  int n;
  double *w;
  double *obs;
} Fit;

double misfit(const Fit *f) {
  double J = 0;
  for (int i = 0; i < f->n; i++) {
    double e = f->w[i] * f->w[i] - f->obs[i];
    J += e * e;
  }
  return J;
}

int main(void) {
  double w[3] = {1.0, 2.0, 3.0}, dw[3] = {0}, obs[3] = {0.5, 3.0, 10.0};
  Fit f = {3, w, obs}, df = {3, dw, obs};
  __enzyme_autodiff((void *)misfit, enzyme_runtime_activity, enzyme_dup, &f,
                    &df);
  const double was[3] = {0.5, 3.0, 10.0};
  for (int i = 0; i < 3; ++i) {
    check_close("dJ/dw", dw[i], 4 * w[i] * (w[i] * w[i] - obs[i]), 1e-12);
    check_close("obs unchanged", obs[i], was[i], 0);
  }
  double tw[3] = {0.25, -1.0, 0.5};
  Fit tf = {3, tw, obs};
  double t = __enzyme_fwddiff((void *)misfit, enzyme_runtime_activity,
                              enzyme_dup, &f, &tf);
  double want = 0;
  for (int i = 0; i < 3; ++i)
    want += 4 * w[i] * (w[i] * w[i] - obs[i]) * tw[i];
  check_close("tangent", t, want, 1e-12);
  return check_report();
}
