// A physics user's program: a harmonic oscillator integrated with
// velocity Verlet, the state a struct passed and returned by value, and the
// gradient of the final energy with respect to the initial position,
// velocity and spring constant (enzyme_out scalars). Expected values are
// central finite differences of the same function.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

typedef struct {
  double x, v;
} State;

typedef struct {
  double dx0, dv0, dk;
} Grad;

extern int enzyme_out, enzyme_const;
extern Grad __enzyme_autodiff(void *, ...);

static State step(State s, double k, double dt) {
  double a = -k * s.x - 0.1 * s.x * s.x * s.x;
  State n;
  n.v = s.v + 0.5 * dt * a;
  n.x = s.x + dt * n.v;
  double a2 = -k * n.x - 0.1 * n.x * n.x * n.x;
  n.v += 0.5 * dt * a2;
  return n;
}

static double energy(State s, double k) {
  return 0.5 * s.v * s.v + 0.5 * k * s.x * s.x + 0.025 * s.x * s.x * s.x * s.x;
}

double final_energy(double x0, double v0, double k, int steps) {
  State s = {x0, v0};
  for (int i = 0; i < steps; ++i)
    s = step(s, k, 0.05);
  return energy(s, k) + 0.3 * s.x;
}

int main(void) {
  double x0 = 0.7, v0 = -0.2, k = 1.3;
  int n = 40;
  Grad g = __enzyme_autodiff((void *)final_energy, enzyme_out, x0, enzyme_out,
                             v0, enzyme_out, k, enzyme_const, n);
  double h = 1e-6;
  check_close("dE/dx0", g.dx0, CENTRAL_DIFF(final_energy(t_, v0, k, n), x0, h),
              1e-6);
  check_close("dE/dv0", g.dv0, CENTRAL_DIFF(final_energy(x0, t_, k, n), v0, h),
              1e-6);
  check_close("dE/dk", g.dk, CENTRAL_DIFF(final_energy(x0, v0, t_, n), k, h),
              1e-6);
  return check_report();
}
