// Pair potentials behind an abstract interface: energy of a small 2D cluster
// through `const Potential &`, Lennard-Jones and Morse subclasses.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <vector>
extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

struct Potential {
  virtual ~Potential() = default;
  virtual double energy(double r) const = 0;
};
struct LennardJones : Potential {
  double eps, sigma;
  LennardJones(double e, double s) : eps(e), sigma(s) {}
  double energy(double r) const override {
    double s6 = std::pow(sigma / r, 6);
    return 4 * eps * (s6 * s6 - s6);
  }
};
struct Morse : Potential {
  double D, a, r0;
  Morse(double D, double a, double r0) : D(D), a(a), r0(r0) {}
  double energy(double r) const override {
    double e = 1 - std::exp(-a * (r - r0));
    return D * e * e;
  }
};

double cluster_energy(const double *xy, int n, const Potential &pot) {
  double E = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double dx = xy[2 * i] - xy[2 * j], dy = xy[2 * i + 1] - xy[2 * j + 1];
      E += pot.energy(std::sqrt(dx * dx + dy * dy));
    }
  return E;
}

static void test(const Potential &pot, const char *name) {
  const int n = 4;
  double xy[2 * n] = {0, 0, 1.1, 0.1, 0.2, 1.0, 1.3, 1.2}, d[2 * n] = {0};
  __enzyme_autodiff((void *)cluster_energy, enzyme_dup, xy, d, enzyme_const, n,
                    enzyme_const, &pot);
  for (int k = 0; k < 2 * n; k++) {
    double p[2 * n];
    for (int q = 0; q < 2 * n; q++) p[q] = xy[q];
    double want = CENTRAL_DIFF((p[k] = t_, cluster_energy(p, n, pot)), xy[k], 1e-6);
    check_close(name, d[k], want, 1e-6);
  }
}

int main() {
  LennardJones lj(1.0, 1.0);
  Morse mo(2.0, 1.5, 1.1);
  test(lj, "LJ");
  test(mo, "Morse");
  std::vector<Potential *> all = {&lj, &mo};
  for (auto *p : all) test(*p, "vec");
  return check_report();
}
