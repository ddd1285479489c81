// Struct copies that clang lowers to a memcpy with no type, in the
// containers scientific C++ uses: std::map<int, std::vector<double>>,
// std::map<int, float>, std::map<int, Vec3> copied by value (each node's
// pair is memcpy'd by its trivial copy constructor inside _M_copy, which
// never reads it), a std::vector<std::pair<int, double>> and a
// std::vector<Particle> copied (std::copy's memmove of typed pointers), and
// a std::array<Particle, 1> copy. Tapestry's front-end part describes each
// copy (plugin/Frontend/CopyTypes.cpp); with -fpass-plugin alone the map
// copies are refused (test/Integration/cxx-map-copies.cpp).
// Expected values are analytic; see main.
// RUN: %clangxx_fplugin -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx_fplugin -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx_fplugin -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx_fplugin -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx_enzyme -std=c++17 -O2 %s -o %te && %te | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <array>
#include <cmath>
#include <map>
#include <vector>

extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

struct Vec3 {
  double x, y, z;
};
struct Particle {
  int id;
  double mass;
  float charge;
  double pos[3];
};

__attribute__((noinline)) static double
sumVecMap(std::map<int, std::vector<double>> m) {
  double s = 0;
  for (auto &kv : m)
    for (double v : kv.second)
      s += kv.first * v * v;
  return s;
}
__attribute__((noinline)) static double sumFloatMap(std::map<int, float> m) {
  double s = 0;
  for (auto &kv : m)
    s += kv.second * kv.second;
  return s;
}
__attribute__((noinline)) static double sumVec3Map(std::map<int, Vec3> m) {
  double s = 0;
  for (auto &kv : m)
    s += kv.second.x * kv.second.y + kv.second.z;
  return s;
}
__attribute__((noinline)) static double
sumPairs(std::vector<std::pair<int, double>> v) {
  double s = 0;
  for (auto &p : v)
    s += p.first * std::sin(p.second);
  return s;
}
__attribute__((noinline)) static double energy(std::vector<Particle> ps) {
  double e = 0;
  for (auto &p : ps)
    e += p.mass * (p.pos[0] * p.pos[0] + p.pos[1] * p.pos[2]) + p.charge;
  return e;
}

double objective(const double *c, int n) {
  std::map<int, std::vector<double>> vm;
  std::map<int, float> fm;
  std::map<int, Vec3> v3;
  std::vector<std::pair<int, double>> pairs;
  std::vector<Particle> ps;
  for (int i = 0; i < n; ++i) {
    vm[i] = {c[i], 2 * c[i]};
    fm[i] = 1.0f + i;
    v3[i] = Vec3{c[i], c[i] + 1, 3 * c[i]};
    pairs.push_back({i + 1, c[i]});
    Particle p{i, 1.0 + i, 0.5f, {c[i], c[i] * c[i], 2.0}};
    ps.push_back(p);
  }
  std::vector<Particle> ps2 = ps;
  std::array<Particle, 1> one = {ps2[0]};
  std::array<Particle, 1> two = one;
  return sumVecMap(vm) + sumFloatMap(fm) + sumVec3Map(v3) + sumPairs(pairs) +
         energy(ps2) + two[0].mass * two[0].pos[0];
}

int main() {
  enum { N = 4 };
  double c[N], dc[N] = {0}, v[N];
  for (int i = 0; i < N; ++i) {
    c[i] = 0.3 + 0.2 * i;
    v[i] = 1.0 - 0.3 * i;
  }
  __enzyme_autodiff((void *)objective, enzyme_dup, c, dc, enzyme_const, N);
  double t =
      __enzyme_fwddiff((void *)objective, enzyme_dup, c, v, enzyme_const, N);
  double dot = 0;
  for (int i = 0; i < N; ++i) {
    double ci = c[i];
    // vm: i*(c^2 + 4c^2) = 5 i c^2 -> 10 i c; v3: c(c+1) + 3c -> 2c + 1 + 3;
    // pairs: (i+1) sin c -> (i+1) cos c; energy: (1+i)(c^2 + 2 c^2) -> 6(1+i)c;
    // two: particle 0 only: mass 1 * c0.
    double want = 10.0 * i * ci + 2 * ci + 4 + (i + 1) * std::cos(ci) +
                  6.0 * (1 + i) * ci + (i == 0 ? 1.0 : 0.0);
    check_close("reverse", dc[i], want, 1e-12);
    dot += want * v[i];
  }
  check_close("forward", t, dot, 1e-12);
  return check_report();
}
