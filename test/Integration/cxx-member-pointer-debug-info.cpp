// Member functions given to tapestry::autodiff as &S::m (the object pointer
// first), compiled with debug info, in reverse and forward mode. Expected
// values are analytic derivatives.
// Calls the plugin makes inside a derivative with debug info get a
// location, so the result passes the verifier with -g too.
// RUN: %clangxx -O0 -g %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O2 -g %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <tapestry/tapestry.hpp>

#include <cmath>

struct Pendulum {
  double length, gravity;
  double energy(double theta, double omega) const {
    return 0.5 * length * length * omega * omega + gravity * length * (1 - std::cos(theta));
  }
};

int main() {
  Pendulum p{1.5, 9.81}, dp{0, 0};
  double th = 0.4, om = -1.2;
  auto [dth, dom] = tapestry::autodiff<tapestry::Reverse, &Pendulum::energy>(
      tapestry::Duplicated(&p, &dp), tapestry::Active(th), tapestry::Active(om));
  check_close("reverse d/dtheta", dth, p.gravity * p.length * std::sin(th), 1e-12);
  check_close("reverse d/domega", dom, p.length * p.length * om, 1e-12);
  check_close("reverse d/dlength", dp.length,
              p.length * om * om + p.gravity * (1 - std::cos(th)), 1e-12);
  check_close("reverse d/dgravity", dp.gravity, p.length * (1 - std::cos(th)), 1e-12);
  double t = tapestry::autodiff<tapestry::Forward, &Pendulum::energy>(
      tapestry::Const(&p), tapestry::Duplicated(th, 1.0), tapestry::Duplicated(om, 0.0));
  check_close("forward d/dtheta", t, p.gravity * p.length * std::sin(th), 1e-12);
  return check_report();
}
