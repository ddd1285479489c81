// The same spring energy written with an array of structs and a struct of
// arrays; gradients must agree with each other and with the formula.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

struct P { double x, y; int id; };
struct Soa { double *x; double *y; int n; };
const double L0 = 0.7;

double energy_aos(const P *p, int n) {
  double e = 0;
  for (int i = 0; i + 1 < n; i++) {
    double dx = p[i + 1].x - p[i].x, dy = p[i + 1].y - p[i].y;
    double l = std::sqrt(dx * dx + dy * dy) - L0;
    e += 0.5 * l * l;
  }
  return e;
}
double energy_soa(const Soa &s) {
  double e = 0;
  for (int i = 0; i + 1 < s.n; i++) {
    double dx = s.x[i + 1] - s.x[i], dy = s.y[i + 1] - s.y[i];
    double l = std::sqrt(dx * dx + dy * dy) - L0;
    e += 0.5 * l * l;
  }
  return e;
}

int main() {
  const int n = 5;
  P p[n], dp[n] = {};
  double x[n], y[n], dx[n] = {}, dy[n] = {};
  for (int i = 0; i < n; i++) {
    p[i] = {0.6 * i + 0.1 * std::sin(i), 0.3 * std::cos(2.0 * i), i};
    x[i] = p[i].x; y[i] = p[i].y;
  }
  Soa s{x, y, n}, ds{dx, dy, n};
  __enzyme_autodiff((void *)energy_aos, enzyme_dup, p, dp, enzyme_const, n);
  __enzyme_autodiff((void *)energy_soa, enzyme_dup, &s, &ds);
  double gx[n] = {}, gy[n] = {};
  for (int i = 0; i + 1 < n; i++) {
    double ex = x[i + 1] - x[i], ey = y[i + 1] - y[i], len = std::sqrt(ex * ex + ey * ey);
    double f = (len - L0) / len;
    gx[i] -= f * ex; gx[i + 1] += f * ex; gy[i] -= f * ey; gy[i + 1] += f * ey;
  }
  for (int i = 0; i < n; i++) {
    check_close("aos x", dp[i].x, gx[i], 1e-12);
    check_close("aos y", dp[i].y, gy[i], 1e-12);
    check_close("soa x", dx[i], gx[i], 1e-12);
    check_close("soa y", dy[i], gy[i], 1e-12);
  }
  return check_report();
}
