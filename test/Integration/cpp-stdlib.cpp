// The standard library as compiled from libstdc++'s headers (issue 8 items 2
// and 6): std::array, std::accumulate, std::inner_product, std::transform
// with a lambda, range-for, std::min / std::max / std::clamp (away from their
// kinks, and on the clipped side), and <cmath> overloads for float and
// double (std::sin(float), std::pow(double, int), std::abs, std::hypot...),
// in reverse and forward mode, against central finite differences and
// analytic derivatives. std::complex is in cpp-complex*.cpp.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

extern "C" int enzyme_dup, enzyme_const, enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);
extern "C" float __enzyme_autodiff_f(void *, float);
extern "C" float __enzyme_fwddiff_f(void *, float, float);

using A4 = std::array<double, 4>;

double mix(const A4 &a, double s) {
  A4 b;
  std::transform(a.begin(), a.end(), b.begin(), [s](double v) { return std::sin(v) * s; });
  double acc = std::accumulate(b.begin(), b.end(), 0.0);
  double ip = std::inner_product(a.begin(), a.end(), b.begin(), 0.0);
  double m = 0;
  for (double v : a)
    m += std::max(v, 0.0) + std::min(v * v, 1.0);
  double c = std::clamp(a[1] * 2, -1.0, 1.0) + std::clamp(a[3], -1.0, 1.0);
  return acc + ip + m + c + std::pow(s, 3) + std::max({a[0], a[2], s});
}

// std::array by value inside, written and read back; std::array of arrays
double arrays(const double *x) {
  std::array<std::array<double, 3>, 2> m{};
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      m[i][j] = x[i] * x[j] + (i == j);
  double s = 0;
  for (const auto &row : m)
    s += std::inner_product(row.begin(), row.end(), row.begin(), 0.0);
  return std::sqrt(s);
}

double cmath_d(double x) {
  return std::pow(x, 3) + std::pow(x, 2.5) + std::exp(x) * std::log(x) +
         std::abs(x - 2.0) + std::hypot(x, 2.0) + std::atan2(x, 1.5) + std::tanh(x) +
         std::cbrt(x) + std::fmax(x, 0.1) + std::erf(x);
}
float cmath_f(float x) {
  return std::sin(x) * std::exp(x) + std::sqrt(x) + std::abs(x - 3.0f) +
         std::hypot(x, 2.0f) + std::pow(x, 2.0f) + std::log1p(x) + std::cos(x) * x;
}

int main() {
  const double FDTOL = 1e-6, h = 1e-5;
  char what[128];

  /* mix: a = (0.3, 0.2, -0.7, 1.4) -> clamp(0.4) interior, clamp(1.4) clipped */
  A4 a{0.3, 0.2, -0.7, 1.4}, da{0, 0, 0, 0};
  double s = 0.9;
  double ds = __enzyme_autodiff((void *)mix, enzyme_dup, &a, &da, enzyme_out, s);
  check_close("mix reverse d/ds", ds, CENTRAL_DIFF(mix(a, t_), s, h), FDTOL);
  double dir = 0;
  A4 ta{1.0, -0.5, 0.25, 2.0};
  for (int i = 0; i < 4; i++) {
    double a0 = a[i];
    double fd = CENTRAL_DIFF((a[i] = t_, mix(a, s)), a0, h);
    a[i] = a0;
    snprintf(what, sizeof what, "mix reverse d/da[%d]", i);
    check_close(what, da[i], fd, FDTOL);
    dir += ta[i] * fd;
  }
  double t = __enzyme_fwddiff((void *)mix, enzyme_dup, &a, &ta, enzyme_dup, s, 0.5);
  check_close("mix forward", t, dir + 0.5 * ds, FDTOL);

  double x[3] = {0.5, -1.5, 2.0}, dx[3] = {0, 0, 0}, tx[3] = {0.3, 1.0, -1.0};
  __enzyme_autodiff((void *)arrays, enzyme_dup, x, dx);
  dir = 0;
  for (int i = 0; i < 3; i++) {
    double x0 = x[i];
    double fd = CENTRAL_DIFF((x[i] = t_, arrays(x)), x0, h);
    x[i] = x0;
    snprintf(what, sizeof what, "array of arrays reverse d/dx[%d]", i);
    check_close(what, dx[i], fd, FDTOL);
    dir += tx[i] * fd;
  }
  check_close("array of arrays forward",
              __enzyme_fwddiff((void *)arrays, enzyme_dup, x, tx), dir, FDTOL);

  for (double p : {0.6, 2.7}) {
    double fd = CENTRAL_DIFF(cmath_d(t_), p, h);
    snprintf(what, sizeof what, "cmath double reverse at %g", p);
    check_close(what, __enzyme_autodiff((void *)cmath_d, p), fd, FDTOL);
    snprintf(what, sizeof what, "cmath double forward at %g", p);
    check_close(what, __enzyme_fwddiff((void *)cmath_d, enzyme_dup, p, 1.0), fd, FDTOL);
    // float: compare with the same formula's derivative evaluated in double
    float pf = (float)p;
    double xf = pf;
    double want = std::cos(xf) * std::exp(xf) + std::sin(xf) * std::exp(xf) +
                  0.5 / std::sqrt(xf) + (xf > 3 ? 1 : -1) + xf / std::hypot(xf, 2.0) +
                  2 * xf + 1 / (1 + xf) + std::cos(xf) - xf * std::sin(xf);
    snprintf(what, sizeof what, "cmath float reverse at %g", p);
    check_close(what, __enzyme_autodiff_f((void *)cmath_f, pf), want, 1e-5);
    snprintf(what, sizeof what, "cmath float forward at %g", p);
    check_close(what, __enzyme_fwddiff_f((void *)cmath_f, pf, 1.0f), want, 1e-5);
  }
  return check_report();
}
