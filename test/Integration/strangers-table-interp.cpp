// Linear interpolation in a lookup table found with std::upper_bound (a
// drag coefficient versus Mach number), inside a trajectory step loop;
// derivative with respect to the table values and the initial speed.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <algorithm>
#include <cmath>
#include <vector>
extern "C" int enzyme_dup, enzyme_const, enzyme_out;
extern "C" void __enzyme_autodiff(void *, ...);

struct Table { std::vector<double> x, y; };

static double interp(const Table &t, double x) {
  auto it = std::upper_bound(t.x.begin(), t.x.end(), x);
  size_t i = std::clamp<size_t>(it - t.x.begin(), 1, t.x.size() - 1);
  double x0 = t.x[i - 1], x1 = t.x[i];
  double a = (x - x0) / (x1 - x0);
  return (1 - a) * t.y[i - 1] + a * t.y[i];
}

double range(const Table &cd, double v0) {
  double v = v0, s = 0, dt = 0.05;
  for (int k = 0; k < 100; ++k) {
    double drag = interp(cd, v / 340.0) * v * v * 1e-4;
    v -= drag * dt;
    s += v * dt;
  }
  return s;
}

int main() {
  Table cd{{0.0, 0.5, 0.8, 1.0, 1.2, 2.0, 3.0}, {0.2, 0.22, 0.3, 0.45, 0.4, 0.3, 0.25}};
  Table dcd{std::vector<double>(7, 0.0), std::vector<double>(7, 0.0)};
  double v0 = 420.0, dv0 = 0;
  // reverse: the table's y values and v0 (v0 through a double* argument)
  struct Wrap { static double f(const Table &t, const double *v) { return range(t, *v); } };
  __enzyme_autodiff((void *)Wrap::f, enzyme_dup, &cd, &dcd, enzyme_dup, &v0, &dv0);
  check_close("dv0", dv0, CENTRAL_DIFF(range(cd, t_), v0, 1e-4), 1e-6);
  for (int i = 0; i < 7; i++) {
    Table q = cd;
    check_close("dy", dcd.y[i], CENTRAL_DIFF((q.y[i] = t_, range(q, v0)), cd.y[i], 1e-6), 1e-5);
  }
  return check_report();
}
