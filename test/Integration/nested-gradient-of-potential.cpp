// The field of point charges, as a physicist writes it: the potential
// p(x) = sum_k q_k / |x - c_k| over a std::vector of charges, its gradient
// by reverse mode into a local (the output enzyme_dupnoneed), and that
// gradient differentiated again, by forward mode (a Hessian-vector product)
// and by reverse mode (the gradient of g . u, which is H u too: the Hessian
// is symmetric). The inner gradient's reverse sweep recomputes the square
// root and the reciprocal instead of taping them (the output's store is
// left out of the derivative, so the charges are reloaded), and the outer
// derivatives differentiate that recomputation. Analytic: for one charge,
// with d = x - c and r = |d|, grad = -q d / r^3 and
// H = q (3 d d^T / r^5 - I / r^3).
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// The inner gradient keeps no per-charge records at -O2.
// RUN: %clangxx -std=c++17 -O2 -Rpass=tapestry -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// REMARK: reverse sweep of 'potentialOf({{.*}})' caches {{[0-9]+}} value(s) computed once and nothing per loop iteration
#include "Inputs/check.h"
#include <cmath>
#include <vector>

extern "C" int enzyme_dup, enzyme_const, enzyme_dupnoneed;
extern "C" void __enzyme_autodiff(void *, ...);
extern "C" void __enzyme_fwddiff(void *, ...);

struct Charge {
  double q, x, y, z;
};

void potentialOf(const std::vector<Charge> *charges, const double *x,
                 double *out) {
  double p = 0;
  for (const Charge &c : *charges) {
    double dx = x[0] - c.x, dy = x[1] - c.y, dz = x[2] - c.z;
    p += c.q / std::sqrt(dx * dx + dy * dy + dz * dz);
  }
  *out = p;
}

// g = grad p(x).
void gradient(const std::vector<Charge> *charges, const double *x, double *g) {
  double p, seed = 1;
  g[0] = g[1] = g[2] = 0;
  __enzyme_autodiff((void *)potentialOf, enzyme_const, charges, enzyme_dup, x,
                    g, enzyme_dupnoneed, &p, &seed);
}

// g(x) . u, whose gradient is H u.
double gradientAlong(const std::vector<Charge> *charges, const double *x,
                     const double *u) {
  double g[3];
  gradient(charges, x, g);
  return g[0] * u[0] + g[1] * u[1] + g[2] * u[2];
}

void gradientAlongOut(const std::vector<Charge> *charges, const double *x,
                      const double *u, double *out) {
  *out = gradientAlong(charges, x, u);
}

int main() {
  std::vector<Charge> charges = {{1.0, 0.3, -0.2, 0.5},
                                 {-0.7, -1.1, 0.4, 0.2},
                                 {2.5, 0.8, 1.3, -0.9},
                                 {0.4, -0.5, -1.2, 1.4}};
  double x[3] = {0.45, 0.15, -0.35}, u[3] = {0.6, -0.3, 0.9};

  double want[3] = {0, 0, 0}, wantG[3] = {0, 0, 0};
  for (const Charge &c : charges) {
    double d[3] = {x[0] - c.x, x[1] - c.y, x[2] - c.z};
    double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2], r = std::sqrt(r2);
    double r3 = r2 * r, r5 = r3 * r2;
    double du = d[0] * u[0] + d[1] * u[1] + d[2] * u[2];
    for (int i = 0; i < 3; i++) {
      wantG[i] += -c.q * d[i] / r3;
      want[i] += c.q * (3 * d[i] * du / r5 - u[i] / r3);
    }
  }

  double g[3];
  gradient(&charges, x, g);
  for (int i = 0; i < 3; i++)
    check_close("gradient", g[i], wantG[i], 1e-12);

  // Forward over reverse: the tangent of the gradient in direction u.
  double gOut[3], hu[3];
  __enzyme_fwddiff((void *)gradient, enzyme_const, &charges, enzyme_dup, x, u,
                   enzyme_dup, gOut, hu);
  for (int i = 0; i < 3; i++)
    check_close("forward over reverse H u", hu[i], want[i], 1e-10);

  // Reverse over reverse, twice on the same memory: the adjoint of g . u.
  for (int round = 0; round < 2; round++) {
    double dx[3] = {0, 0, 0}, out, seed = 1;
    __enzyme_autodiff((void *)gradientAlongOut, enzyme_const, &charges,
                      enzyme_dup, x, dx, enzyme_const, u, enzyme_dupnoneed,
                      &out, &seed);
    for (int i = 0; i < 3; i++)
      check_close("reverse over reverse H u", dx[i], want[i], 1e-10);
  }
  return check_report();
}
