// A generic RK4 integrator taking the right-hand side as a lambda; the final
// state of a damped pendulum differentiated with respect to the damping and
// the initial angle (reverse) and the length (forward).
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <array>
#include <cmath>
extern "C" int enzyme_dup, enzyme_const, enzyme_out;
template <typename RT, typename... Args> RT __enzyme_autodiff(void *, Args...);
template <typename RT, typename... Args> RT __enzyme_fwddiff(void *, Args...);

struct Two { double a, b; };
using State = std::array<double, 2>;

template <class F> State rk4(F rhs, State y, double dt, int steps) {
  for (int s = 0; s < steps; ++s) {
    State k1 = rhs(y), t, k2, k3, k4;
    for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * dt * k1[i];
    k2 = rhs(t);
    for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * dt * k2[i];
    k3 = rhs(t);
    for (int i = 0; i < 2; i++) t[i] = y[i] + dt * k3[i];
    k4 = rhs(t);
    for (int i = 0; i < 2; i++)
      y[i] += dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  return y;
}

double final_angle(double damping, double theta0, double length) {
  const double g = 9.81;
  auto rhs = [&](const State &y) -> State {
    return {y[1], -g / length * std::sin(y[0]) - damping * y[1]};
  };
  State y = rk4(rhs, State{theta0, 0.0}, 0.01, 200);
  return y[0] + 0.3 * y[1];
}

int main() {
  double c = 0.4, th = 0.9, L = 1.5;
  struct { double dc, dth; } r;
  // reverse for two active scalars returns a struct of doubles
  Two g = __enzyme_autodiff<Two>((void *)final_angle, enzyme_out, c, enzyme_out, th, enzyme_const, L);
  r.dc = g.a; r.dth = g.b;
  check_close("d/dc", r.dc, CENTRAL_DIFF(final_angle(t_, th, L), c, 1e-6), 1e-6);
  check_close("d/dth", r.dth, CENTRAL_DIFF(final_angle(c, t_, L), th, 1e-6), 1e-6);
  double dL = __enzyme_fwddiff<double>((void *)final_angle, enzyme_const, c, enzyme_const, th,
                               enzyme_dup, L, 1.0);
  check_close("d/dL", dL, CENTRAL_DIFF(final_angle(c, th, t_), L, 1e-6), 1e-6);
  return check_report();
}
