// A C quadrature library: Simpson's rule over a callback
// double (*f)(double, void *ctx) with a user context struct; the integral
// of a Gaussian bump differentiated with respect to the context's fields.
// RUN: %clang -O0 %s -o %t0 -lm && %t0 | FileCheck %s
// RUN: %clang -O1 %s -o %t1 -lm && %t1 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 -lm && %t2 | FileCheck %s
// RUN: %clang -O3 %s -o %t3 -lm && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

typedef double (*integrand)(double x, void *ctx);
struct bump { double amp, mu, sigma; int unused; };

static double gauss(double x, void *ctx) {
  const struct bump *b = (const struct bump *)ctx;
  double z = (x - b->mu) / b->sigma;
  return b->amp * exp(-0.5 * z * z);
}
static double cubic(double x, void *ctx) {
  const struct bump *b = (const struct bump *)ctx;
  return b->amp * x * x * x + b->mu * x;
}

static double simpson(integrand f, void *ctx, double a, double b, int n) {
  double h = (b - a) / n, s = f(a, ctx) + f(b, ctx);
  for (int i = 1; i < n; i++) s += (i % 2 ? 4 : 2) * f(a + i * h, ctx);
  return s * h / 3;
}

struct problem { integrand f; double a, b; };

double run(const struct problem *p, struct bump *ctx) {
  return simpson(p->f, ctx, p->a, p->b, 40);
}

int main(void) {
  struct problem P1 = {gauss, -1.0, 2.0}, P2 = {cubic, 0.0, 1.0};
  struct bump b = {1.5, 0.3, 0.7, 0}, db = {0};
  __enzyme_autodiff((void *)run, enzyme_const, &P1, enzyme_dup, &b, &db);
  struct bump q = b;
  check_close("amp", db.amp, CENTRAL_DIFF((q.amp = t_, run(&P1, &q)), b.amp, 1e-6), 1e-8);
  q = b;
  check_close("mu", db.mu, CENTRAL_DIFF((q.mu = t_, run(&P1, &q)), b.mu, 1e-6), 1e-8);
  q = b;
  check_close("sigma", db.sigma, CENTRAL_DIFF((q.sigma = t_, run(&P1, &q)), b.sigma, 1e-6), 1e-8);
  struct bump dc = {0};
  __enzyme_autodiff((void *)run, enzyme_const, &P2, enzyme_dup, &b, &dc);
  check_close("cubic amp", dc.amp, 0.25, 1e-12);
  check_close("cubic mu", dc.mu, 0.5, 1e-12);
  return check_report();
}
