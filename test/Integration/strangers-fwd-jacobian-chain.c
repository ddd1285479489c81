// Forward mode on a void function with an output array: the force vector of
// a spring chain with cubic springs; one Jacobian column per call.
// RUN: %clang -O0 %s -o %t0 -lm && %t0 | FileCheck %s
// RUN: %clang -O1 %s -o %t1 -lm && %t1 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 -lm && %t2 | FileCheck %s
// RUN: %clang -O3 %s -o %t3 -lm && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
extern void __enzyme_fwddiff(void *, ...);

struct chain { int n; double k, k3; };

void forces(const struct chain *c, const double *u, double *f) {
  for (int i = 0; i < c->n; i++) f[i] = 0;
  for (int i = 0; i + 1 < c->n; i++) {
    double e = u[i + 1] - u[i];
    double t = c->k * e + c->k3 * e * e * e;
    f[i] += t;
    f[i + 1] -= t;
  }
}

int main(void) {
  enum { N = 5 };
  struct chain c = {N, 2.0, 0.5};
  double u[N] = {0, 0.1, 0.35, 0.3, 0.6}, f[N], df[N];
  for (int j = 0; j < N; j++) {
    double v[N] = {0};
    v[j] = 1;
    __enzyme_fwddiff((void *)forces, enzyme_const, &c, enzyme_dup, u, v,
                     enzyme_dupnoneed, f, df);
    for (int i = 0; i < N; i++) {
      double p[N], fp[N], fm[N], h = 1e-6;
      for (int q = 0; q < N; q++) p[q] = u[q];
      p[j] = u[j] + h; forces(&c, p, fp);
      p[j] = u[j] - h; forces(&c, p, fm);
      check_close("J", df[i], (fp[i] - fm[i]) / (2 * h), 1e-7);
    }
  }
  return check_report();
}
