// A C++ user's program with std::array: the squared area of triangles
// |(b - a) x (c - a)|^2 / 4 summed over a small mesh whose vertices are a
// std::array of std::array<double, 3>, passed by reference; the gradient
// with respect to every vertex coordinate. Expected values are central
// finite differences.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 -march=native -ffast-math %s -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <array>

using Vec3 = std::array<double, 3>;
using Mesh = std::array<Vec3, 5>;
extern "C" int enzyme_dup;
extern "C" void __enzyme_autodiff(void *, ...);

static Vec3 sub(const Vec3 &a, const Vec3 &b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
static Vec3 cross(const Vec3 &a, const Vec3 &b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
          a[0] * b[1] - a[1] * b[0]};
}

static const std::array<std::array<int, 3>, 3> tris = {
    {{0, 1, 2}, {0, 2, 3}, {1, 4, 2}}};

double area2(const Mesh &m) {
  double s = 0;
  for (const auto &t : tris) {
    Vec3 n = cross(sub(m[t[1]], m[t[0]]), sub(m[t[2]], m[t[0]]));
    double a2 = 0;
    for (double c : n)
      a2 += c * c;
    s += a2 / 4;
  }
  return s;
}

int main() {
  Mesh m, dm{};
  for (int i = 0; i < 5; ++i)
    m[i] = {0.3 * i, std::sin(1.0 + i), 0.1 * i * i - 0.2};
  __enzyme_autodiff((void *)area2, enzyme_dup, &m, &dm);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 3; ++j) {
      Mesh p = m;
      double want = CENTRAL_DIFF((p[i][j] = t_, area2(p)), m[i][j], 1e-6);
      check_close("dA/dx", dm[i][j], want, 1e-7);
    }
  return check_report();
}
