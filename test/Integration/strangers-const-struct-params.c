// A user's program passing a parameter struct enzyme_const by pointer (an
// integer count, a table pointer and scalar coefficients: nothing in it is
// differentiated) beside the active state: a regularised least-squares
// fit of y = a exp(-k t) + c. Gradient with respect to the model
// parameters (a, k, c), analytic.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

struct Data {
  int n;
  const double *t;
  const double *y;
  double lambda;
  double weight;
};

extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);

double objective(const double *theta, const struct Data *d) {
  double s = 0;
  for (int i = 0; i < d->n; ++i) {
    double m = theta[0] * exp(-theta[1] * d->t[i]) + theta[2];
    double r = m - d->y[i];
    s += d->weight * r * r;
  }
  return s + d->lambda * (theta[0] * theta[0] + theta[1] * theta[1]);
}

int main(void) {
  double t[12], y[12];
  for (int i = 0; i < 12; ++i) {
    t[i] = 0.25 * i;
    y[i] = 2.0 * exp(-0.7 * t[i]) + 0.1 + 0.01 * ((i * 37) % 5 - 2);
  }
  struct Data d = {12, t, y, 0.05, 0.5};
  double th[3] = {1.5, 0.5, 0.0}, dth[3] = {0};
  __enzyme_autodiff((void *)objective, enzyme_dup, th, dth, enzyme_const, &d);
  double w[3] = {2 * d.lambda * th[0], 2 * d.lambda * th[1], 0};
  for (int i = 0; i < d.n; ++i) {
    double e = exp(-th[1] * t[i]);
    double r = th[0] * e + th[2] - y[i];
    w[0] += 2 * d.weight * r * e;
    w[1] += 2 * d.weight * r * (-th[0] * t[i] * e);
    w[2] += 2 * d.weight * r;
  }
  check_close("d/da", dth[0], w[0], 1e-12);
  check_close("d/dk", dth[1], w[1], 1e-12);
  check_close("d/dc", dth[2], w[2], 1e-12);
  return check_report();
}
