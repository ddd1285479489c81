// N-body gravitational potential over std::vector<Particle>; gradient with
// respect to positions, masses held constant inside the same struct.
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

struct Particle {
  double pos[3];
  double vel[3];
  double mass;
};

double potential(const std::vector<Particle> &ps) {
  double U = 0;
  for (size_t i = 0; i < ps.size(); ++i)
    for (size_t j = i + 1; j < ps.size(); ++j) {
      double r2 = 0.01;
      for (int k = 0; k < 3; ++k) {
        double d = ps[i].pos[k] - ps[j].pos[k];
        r2 += d * d;
      }
      U -= ps[i].mass * ps[j].mass / std::sqrt(r2);
    }
  double K = 0;
  for (const Particle &p : ps)
    for (double v : p.vel) K += 0.5 * p.mass * v * v;
  return U + K;
}

int main() {
  std::vector<Particle> ps(5), dps(5);
  for (int i = 0; i < 5; i++) {
    ps[i].mass = 1.0 + 0.2 * i;
    for (int k = 0; k < 3; k++) {
      ps[i].pos[k] = std::sin(1.3 * i + k);
      ps[i].vel[k] = 0.1 * (i - k);
    }
  }
  for (auto &d : dps) d = Particle{};
  __enzyme_autodiff((void *)potential, enzyme_dup, &ps, &dps);
  for (int i = 0; i < 5; i++) {
    for (int k = 0; k < 3; k++) {
      std::vector<Particle> q = ps;
      double want = CENTRAL_DIFF((q[i].pos[k] = t_, potential(q)), ps[i].pos[k], 1e-6);
      check_close("dU/dx", dps[i].pos[k], want, 1e-7);
      check_close("dK/dv", dps[i].vel[k], ps[i].mass * ps[i].vel[k], 1e-12);
    }
    std::vector<Particle> q = ps;
    double want = CENTRAL_DIFF((q[i].mass = t_, potential(q)), ps[i].mass, 1e-6);
    check_close("dE/dm", dps[i].mass, want, 1e-7);
  }
  return check_report();
}
