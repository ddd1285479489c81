// Entry points declared the C++ way, as benchmark suites declare them:
// never-defined function templates instantiated per return type (their
// mangled names contain the entry name; a typed pack and a C variadic),
// beside extern "C" declarations; std::vector copies (copy construction and
// operator=, a memmove of doubles) inside the differentiated function and
// inside a nested request (a Hessian-vector product, forward over reverse).
// Expected values are analytic.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -g -O0 %s -o %t0g && %t0g | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -g -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

#include <cmath>
#include <vector>

int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
template <typename R, typename... T> R __enzyme_autodiff_template(void *, T...);
template <typename R> R __enzyme_fwddiff_template(void *, ...);
extern "C" double __enzyme_autodiff(void *, ...);

// sum_i sin(x_i) x_{i+1 mod n}, through two copies of the vector.
double energy(const std::vector<double> &v0) {
  std::vector<double> v = v0; // copy construction
  std::vector<double> w;
  w = v; // operator=
  double s = 0;
  for (size_t i = 0; i < w.size(); ++i)
    s += std::sin(w[i]) * v[(i + 1) % v.size()];
  return s;
}
double energy_of(const double *x, int n) {
  std::vector<double> v(x, x + n);
  return energy(v);
}
double energy_partial(const double *x, int n, int k) {
  return std::cos(x[k]) * x[(k + 1) % n] + std::sin(x[(k + n - 1) % n]);
}
// H[i][k] = d^2 E / dx_i dx_k
double energy_hessian(const double *x, int n, int i, int k) {
  double h = 0;
  if (i == k)
    h -= std::sin(x[k]) * x[(k + 1) % n];
  if (i == (k + 1) % n)
    h += std::cos(x[k]);
  if (i == (k + n - 1) % n)
    h += std::cos(x[i]);
  return h;
}

void gradient(const double *x, double *g, int n) {
  for (int i = 0; i < n; ++i)
    g[i] = 0;
  __enzyme_autodiff_template<void>((void *)energy_of, enzyme_dup, x, g, enzyme_const, n);
}

double scaled(double a, double b) { return a * std::exp(b) / (1 + a * a); }

int main() {
  const int n = 5;
  double x[n] = {0.1, -0.7, 0.3, 1.2, 0.4};
  double g[n] = {0};
  __enzyme_autodiff_template<void>((void *)energy_of, enzyme_dup, x, g, enzyme_const, n);
  for (int k = 0; k < n; ++k)
    check_close("template entry, vector copies, gradient", g[k], energy_partial(x, n, k),
                1e-12);
  double g2[n] = {0};
  __enzyme_autodiff((void *)energy_of, enzyme_dup, x, g2, enzyme_const, n);
  for (int k = 0; k < n; ++k)
    check_close("extern \"C\" entry, gradient", g2[k], energy_partial(x, n, k), 1e-12);

  // Hessian columns, forward over reverse, through the copies.
  for (int k = 0; k < n; ++k) {
    double v[n] = {0}, gg[n], hv[n] = {0};
    v[k] = 1;
    __enzyme_fwddiff_template<void>((void *)gradient, enzyme_dup, x, v, enzyme_dupnoneed, gg,
                                    hv, enzyme_const, n);
    for (int i = 0; i < n; ++i)
      check_close("nested HVP through vector copies", hv[i], energy_hessian(x, n, i, k), 1e-12);
  }

  // A scalar result through the typed-pack template.
  const double a = 0.8, b = -0.4;
  double da = __enzyme_autodiff_template<double>((void *)scaled, enzyme_out, a, enzyme_const, b);
  check_close("template entry, active scalar", da,
              std::exp(b) * (1 - a * a) / ((1 + a * a) * (1 + a * a)), 1e-12);
  double ta = __enzyme_fwddiff_template<double>((void *)scaled, enzyme_const, a, enzyme_dup, b, 1.0);
  check_close("fwddiff template entry", ta, scaled(a, b), 1e-12);
  return check_report();
}
