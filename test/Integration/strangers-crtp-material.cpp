// A CRTP base (static polymorphism) for material models with a
// std::array<double, 6> strain in Voigt notation; strain energy of two
// materials differentiated with respect to the strain (the stress).
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <array>
#include <cmath>
extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

using Voigt = std::array<double, 6>;
template <class Derived> struct Material {
  double energy(const Voigt &e) const { return static_cast<const Derived *>(this)->psi(e); }
  static double trace(const Voigt &e) { return e[0] + e[1] + e[2]; }
  static double ddot(const Voigt &e) {
    return e[0] * e[0] + e[1] * e[1] + e[2] * e[2] + 0.5 * (e[3] * e[3] + e[4] * e[4] + e[5] * e[5]);
  }
};
struct StVenant : Material<StVenant> {
  double lambda, mu;
  double psi(const Voigt &e) const { double t = trace(e); return 0.5 * lambda * t * t + mu * ddot(e); }
};
struct LogBulk : Material<LogBulk> {
  double K, mu;
  double psi(const Voigt &e) const { double t = trace(e); return K * (t - std::log1p(t)) + mu * ddot(e); }
};

template <class M> double energy_of(const M *m, const Voigt *e) { return m->energy(*e); }

template <class M> void check(const M &m, const char *name) {
  Voigt e = {0.01, -0.02, 0.03, 0.04, -0.01, 0.02}, de{};
  __enzyme_autodiff((void *)energy_of<M>, enzyme_const, &m, enzyme_dup, &e, &de);
  for (int i = 0; i < 6; i++) {
    Voigt p = e;
    check_close(name, de[i], CENTRAL_DIFF((p[i] = t_, m.energy(p)), e[i], 1e-7), 1e-6);
  }
}

int main() {
  check(StVenant{{}, 1.2, 0.8}, "stvenant");
  check(LogBulk{{}, 2.0, 0.5}, "logbulk");
  return check_report();
}
