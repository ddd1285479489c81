// A Monte-Carlo user's program: an expectation estimated by sampling, the
// random numbers drawn from a linear congruential generator whose state is
// a struct passed enzyme_const (inactive integer state updated through a
// pointer), normals by Box-Muller. E[(theta + sigma z)^2 + sin(theta z)]
// differentiated with respect to theta and sigma (enzyme_out). Expected:
// the analytic derivative of each sample averaged over the same samples.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdint.h>

typedef struct {
  uint64_t s;
  int calls;
} Rng;

typedef struct {
  double dtheta, dsigma;
} G2;

extern int enzyme_out, enzyme_const;
extern G2 __enzyme_autodiff(void *, ...);

static double uniform(Rng *r) {
  r->s = r->s * 6364136223846793005ULL + 1442695040888963407ULL;
  r->calls++;
  return ((r->s >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

static double normal(Rng *r) {
  double u1 = uniform(r), u2 = uniform(r);
  return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

double expectation(double theta, double sigma, Rng *rng, int n) {
  double acc = 0;
  for (int i = 0; i < n; ++i) {
    double z = normal(rng);
    double x = theta + sigma * z;
    acc += x * x + sin(theta * z);
  }
  return acc / n;
}

int main(void) {
  double theta = 0.4, sigma = 0.8;
  int n = 500;
  Rng r = {12345, 0};
  G2 g = __enzyme_autodiff((void *)expectation, enzyme_out, theta, enzyme_out,
                           sigma, enzyme_const, &r, enzyme_const, n);
  Rng q = {12345, 0};
  double wt = 0, ws = 0;
  for (int i = 0; i < n; ++i) {
    double z = normal(&q);
    double x = theta + sigma * z;
    wt += 2 * x + z * cos(theta * z);
    ws += 2 * x * z;
  }
  check_close("dE/dtheta", g.dtheta, wt / n, 1e-12);
  check_close("dE/dsigma", g.dsigma, ws / n, 1e-12);
  check_close("rng advanced", r.calls, 2 * n, 0);
  return check_report();
}
