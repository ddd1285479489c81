// An astrophysics user's C++ program with Enzyme's C++ interface
// (#include <enzyme/enzyme>): N gravitating bodies with Plummer softening,
// bodies in a std::array of structs. The forces are minus the gradient of
// the potential energy, from enzyme::autodiff<enzyme::Reverse> with the
// system passed as enzyme::Duplicated<const System &> and the softening
// length enzyme::Active (ReverseWithPrimal also returns the energy); the
// power of the forces along a velocity field from enzyme::Forward. Then a
// Simulation class advances the system by velocity Verlet (member
// functions, forces computed inside) and the gradient of the final kinetic
// energy with respect to the initial positions goes through the whole
// integration (Duplicated<Simulation *>). Expected: the analytic pairwise
// forces, d U / d eps in closed form, and central finite differences.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx_enzyme -std=c++17 -O1 %s -S -emit-llvm -o - | lli - | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <array>
#include <enzyme/enzyme>

constexpr int N = 4;
struct Body {
  double pos[3];
  double mass;
};
using System = std::array<Body, N>;

double potential(const System &s, double eps) {
  double u = 0;
  for (int i = 0; i < N; i++)
    for (int j = i + 1; j < N; j++) {
      double r2 = eps * eps;
      for (int k = 0; k < 3; k++) {
        double d = s[i].pos[k] - s[j].pos[k];
        r2 += d * d;
      }
      u -= s[i].mass * s[j].mass / std::sqrt(r2);
    }
  return u;
}

class Simulation {
public:
  System bodies;
  double vel[N][3];
  double eps, dt;

  void forces(double f[N][3]) const {
    for (int i = 0; i < N; i++)
      for (int k = 0; k < 3; k++)
        f[i][k] = 0;
    for (int i = 0; i < N; i++)
      for (int j = i + 1; j < N; j++) {
        double d[3], r2 = eps * eps;
        for (int k = 0; k < 3; k++) {
          d[k] = bodies[j].pos[k] - bodies[i].pos[k];
          r2 += d[k] * d[k];
        }
        double inv = 1 / (r2 * std::sqrt(r2));
        for (int k = 0; k < 3; k++) {
          double fk = bodies[i].mass * bodies[j].mass * d[k] * inv;
          f[i][k] += fk;
          f[j][k] -= fk;
        }
      }
  }
  void step() {
    double f[N][3];
    forces(f);
    for (int i = 0; i < N; i++)
      for (int k = 0; k < 3; k++) {
        vel[i][k] += 0.5 * dt * f[i][k] / bodies[i].mass;
        bodies[i].pos[k] += dt * vel[i][k];
      }
    forces(f);
    for (int i = 0; i < N; i++)
      for (int k = 0; k < 3; k++)
        vel[i][k] += 0.5 * dt * f[i][k] / bodies[i].mass;
  }
  double kinetic() const {
    double t = 0;
    for (int i = 0; i < N; i++)
      for (int k = 0; k < 3; k++)
        t += 0.5 * bodies[i].mass * vel[i][k] * vel[i][k];
    return t;
  }
};

double run_kinetic(Simulation *sim, int steps) {
  for (int n = 0; n < steps; n++)
    sim->step();
  return sim->kinetic();
}

static System make_system() {
  System s;
  const double init[N][4] = {{0.0, 0.0, 0.0, 3.0},
                             {1.0, 0.2, -0.1, 1.0},
                             {-0.4, 1.1, 0.3, 0.5},
                             {0.3, -0.8, 0.9, 0.8}};
  for (int i = 0; i < N; i++) {
    for (int k = 0; k < 3; k++)
      s[i].pos[k] = init[i][k];
    s[i].mass = init[i][3];
  }
  return s;
}

static Simulation make_sim() {
  Simulation sim;
  sim.bodies = make_system();
  for (int i = 0; i < N; i++)
    for (int k = 0; k < 3; k++)
      sim.vel[i][k] = 0.1 * std::sin(1.0 + i + 2.0 * k);
  sim.eps = 0.05;
  sim.dt = 0.01;
  return sim;
}

int main() {
  System s = make_system();
  const double eps = 0.1;

  System ds{};
  auto res = enzyme::autodiff<enzyme::ReverseWithPrimal>(
      potential, enzyme::Duplicated<const System &>(s, ds),
      enzyme::Active(eps));
  double deps = enzyme::get<0>(enzyme::get<0>(res));
  double energy = enzyme::get<1>(res);
  check_close("primal energy", energy, potential(s, eps), 1e-15);

  // Analytic: force on i is -dU/dx_i; dU/deps = sum m_i m_j eps / r^3.
  double want_deps = 0;
  for (int i = 0; i < N; i++) {
    double grad[3] = {0, 0, 0};
    for (int j = 0; j < N; j++) {
      if (j == i)
        continue;
      double r2 = eps * eps, d[3];
      for (int k = 0; k < 3; k++) {
        d[k] = s[i].pos[k] - s[j].pos[k];
        r2 += d[k] * d[k];
      }
      double r3 = r2 * std::sqrt(r2);
      for (int k = 0; k < 3; k++)
        grad[k] += s[i].mass * s[j].mass * d[k] / r3;
      if (j > i)
        want_deps += s[i].mass * s[j].mass * eps / r3;
    }
    for (int k = 0; k < 3; k++) {
      char name[32];
      snprintf(name, sizeof name, "dU/dx[%d][%d]", i, k);
      check_close(name, ds[i].pos[k], grad[k], 1e-12);
    }
  }
  check_close("dU/deps", deps, want_deps, 1e-12);
  // The masses are differentiated too (Duplicated): dU/dm_0 by FD.
  check_close("dU/dm0", ds[0].mass,
              CENTRAL_DIFF(([&] {
                             System t = s;
                             t[0].mass = t_;
                             return potential(t, eps);
                           }()),
                           s[0].mass, 1e-6),
              1e-7);

  // Forward: dU along a displacement field.
  System dir{};
  double power_want = 0;
  for (int i = 0; i < N; i++)
    for (int k = 0; k < 3; k++) {
      dir[i].pos[k] = std::cos(0.5 * i + k);
      power_want += ds[i].pos[k] * dir[i].pos[k];
    }
  double power = enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(
      potential, enzyme::Duplicated<const System &>(s, dir),
      enzyme::Const(eps)));
  check_close("directional dU", power, power_want, 1e-12);

  // Through 25 Verlet steps.
  const int steps = 25;
  Simulation sim = make_sim(), dsim{};
  auto g = enzyme::autodiff<enzyme::Reverse>(
      run_kinetic, enzyme::Duplicated<Simulation *>(&sim, &dsim),
      enzyme::Const(steps));
  (void)g;
  const double h = 1e-6;
  for (int i = 0; i < N; i++)
    for (int k = 0; k < 3; k++) {
      Simulation a = make_sim(), b = make_sim();
      a.bodies[i].pos[k] += h;
      b.bodies[i].pos[k] -= h;
      double fd = (run_kinetic(&a, steps) - run_kinetic(&b, steps)) / (2 * h);
      char name[40];
      snprintf(name, sizeof name, "dT/dx0[%d][%d]", i, k);
      check_close(name, dsim.bodies[i].pos[k], fd, 1e-6);
    }
  {
    Simulation a = make_sim(), b = make_sim();
    a.dt += h;
    b.dt -= h;
    double fd = (run_kinetic(&a, steps) - run_kinetic(&b, steps)) / (2 * h);
    check_close("dT/ddt", dsim.dt, fd, 1e-6);
  }
  return check_report();
}
