// A scientific user's ODE solver: a fixed-step Heun (RK2) integrator that
// calls the right-hand side through a function pointer it receives as an
// argument, used for a damped pendulum; the final angle differentiated
// with respect to the parameters (damping, length). Expected values are
// central finite differences of the same function.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

typedef void (*rhs_fn)(double t, const double *y, double *dydt,
                       const double *p);

extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);

static void pendulum(double t, const double *y, double *dydt,
                     const double *p) {
  (void)t;
  dydt[0] = y[1];
  dydt[1] = -p[0] * y[1] - 9.81 / p[1] * sin(y[0]);
}

static void heun(rhs_fn f, double *y, int n, const double *p, double dt,
                 int steps) {
  double k1[4], k2[4], tmp[4];
  for (int s = 0; s < steps; ++s) {
    double t = s * dt;
    f(t, y, k1, p);
    for (int i = 0; i < n; ++i)
      tmp[i] = y[i] + dt * k1[i];
    f(t + dt, tmp, k2, p);
    for (int i = 0; i < n; ++i)
      y[i] += 0.5 * dt * (k1[i] + k2[i]);
  }
}

rhs_fn chosen = pendulum;

double final_angle(const double *p, rhs_fn f) {
  double y[2] = {0.9, 0.0};
  heun(f, y, 2, p, 0.01, 150);
  return y[0] + 0.1 * y[1] * y[1];
}

static double at(double p0, double p1) {
  double p[2] = {p0, p1};
  return final_angle(p, chosen);
}

int main(void) {
  double p[2] = {0.3, 1.5}, dp[2] = {0};
  __enzyme_autodiff((void *)final_angle, enzyme_dup, p, dp, enzyme_const,
                    chosen);
  double h = 1e-6;
  check_close("d/ddamping", dp[0], CENTRAL_DIFF(at(t_, p[1]), p[0], h), 1e-6);
  check_close("d/dlength", dp[1], CENTRAL_DIFF(at(p[0], t_), p[1], h), 1e-6);
  return check_report();
}
