// Batch mode through the typed C++ API: the width N is the template argument
// of tapestry::BatchDuplicated<T, N> / BatchDuplicatedNoNeed<T, N> and the
// request becomes `enzyme_width N`. Forward mode with scalar and pointer
// arguments (a gradient in one sweep, Jacobian-vector products), forward
// with the primal, a lambda; reverse mode on a vector-valued function (two
// rows of its Jacobian in one sweep, each lane seeded by its own output
// shadow), with an Active scalar (its adjoint comes back per lane) and a
// reference parameter. Expected values are analytic derivatives or central
// finite differences.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <tapestry/tapestry.hpp>

#include <array>
#include <cmath>
#include <type_traits>

static const double TOL = 1e-12;

double f(double x, double y) { return x * x * y + std::sin(x * y); }
double fx(double x, double y) { return 2 * x * y + y * std::cos(x * y); }
double fy(double x, double y) { return x * x + x * std::cos(x * y); }

// sum_i w_i exp(x_i) x_{i+1}
double energy(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; ++i)
    s += (i + 1) * std::exp(x[i]) * x[i + 1];
  return s;
}
double energy_partial(const double *x, int n, int k) {
  double d = 0;
  if (k + 1 < n)
    d += (k + 1) * std::exp(x[k]) * x[k + 1];
  if (k > 0)
    d += k * std::exp(x[k - 1]);
  return d;
}

// y_i = a * sin(x_i) * x_{(i+1)%n}: a vector-valued function.
void field(double a, const double *x, double *y, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = a * std::sin(x[i]) * x[(i + 1) % n];
}
double field_out(double a, const double *x, int n, int i) {
  double y[8];
  field(a, x, y, n);
  return y[i];
}

double scaled_norm(double a, const double &x, const double &y) {
  return a * std::sqrt(x * x + y * y);
}

int main() {
  // Forward, scalars: both partial derivatives in one sweep.
  const double x = 0.7, y = -1.3;
  std::array<double, 2> g = tapestry::autodiff<tapestry::Forward, f>(
      tapestry::BatchDuplicated<double, 2>(x, {1.0, 0.0}),
      tapestry::BatchDuplicated<double, 2>(y, {0.0, 1.0}));
  check_close("forward batch, df/dx", g[0], fx(x, y), TOL);
  check_close("forward batch, df/dy", g[1], fy(x, y), TOL);

  // Forward with the primal: std::tuple<double, std::array<double, 3>>.
  auto [v, t3] = tapestry::autodiff<tapestry::ForwardWithPrimal, f>(
      tapestry::BatchDuplicated<double, 3>(x, {1.0, 0.0, 2.0}),
      tapestry::BatchDuplicated<double, 3>(y, {0.0, 1.0, -1.0}));
  static_assert(std::is_same_v<decltype(t3), std::array<double, 3>>);
  check_close("forward batch with primal, value", v, f(x, y), TOL);
  check_close("forward batch with primal, lane 2", t3[2],
              2 * fx(x, y) - fy(x, y), TOL);

  // Forward, a pointer argument: four directional derivatives at once.
  const int n = 5;
  double p[n] = {0.3, -0.2, 0.5, 0.1, -0.4};
  double dirs[4][n] = {};
  for (int k = 0; k < 4; ++k)
    dirs[k][k] = 1;
  dirs[3][4] = 2; // lane 3: e3 + 2 e4
  std::array<double, 4> jv = tapestry::autodiff<tapestry::Forward, energy>(
      tapestry::BatchDuplicated<const double *, 4>(p, {dirs[0], dirs[1], dirs[2], dirs[3]}),
      tapestry::Const(n));
  for (int k = 0; k < 3; ++k)
    check_close("forward batch, pointer lane", jv[k], energy_partial(p, n, k), TOL);
  check_close("forward batch, pointer lane 3", jv[3],
              energy_partial(p, n, 3) + 2 * energy_partial(p, n, 4), TOL);

  // Forward, a lambda with a capture (the capture is constant).
  const double c = 1.5;
  auto lam = [c](double u, double w) { return c * u * std::exp(w); };
  std::array<double, 2> lg = tapestry::autodiff<tapestry::Forward>(
      lam, tapestry::BatchDuplicated<double, 2>(x, {1.0, 0.0}),
      tapestry::BatchDuplicated<double, 2>(y, {0.0, 1.0}));
  check_close("forward batch lambda, d/du", lg[0], c * std::exp(y), TOL);
  check_close("forward batch lambda, d/dw", lg[1], c * x * std::exp(y), TOL);

  // Reverse, a vector-valued function: rows 1 and 3 of the Jacobian in one
  // sweep; lane k's output shadow holds the seed e_row(k). The input shadows
  // accumulate, lane 1 starting from 10.
  const double a = 1.25;
  double xs[n] = {0.4, 1.1, -0.6, 0.9, 0.2}, ys[n];
  double dx0[n] = {}, dx1[n] = {10, 10, 10, 10, 10};
  double dy0[n] = {0, 1, 0, 0, 0}, dy1[n] = {0, 0, 0, 1, 0};
  auto [da] = tapestry::autodiff<tapestry::Reverse, field>(
      tapestry::Active(a), tapestry::BatchDuplicated<const double *, 2>(xs, {dx0, dx1}),
      tapestry::BatchDuplicatedNoNeed<double *, 2>(ys, {dy0, dy1}), tapestry::Const(n));
  static_assert(std::is_same_v<decltype(da), std::array<double, 2>>);
  const int rows[2] = {1, 3};
  const double h = 1e-6;
  for (int k = 0; k < 2; ++k) {
    int r = rows[k];
    const double *dx = k == 0 ? dx0 : dx1;
    double base = k == 0 ? 0 : 10;
    for (int j = 0; j < n; ++j) {
      double xp[n], xm[n];
      for (int i = 0; i < n; ++i)
        xp[i] = xm[i] = xs[i];
      xp[j] += h;
      xm[j] -= h;
      double fd = (field_out(a, xp, n, r) - field_out(a, xm, n, r)) / (2 * h);
      check_close("reverse batch, Jacobian row vs FD", dx[j] - base, fd, 1e-7);
    }
    check_close("reverse batch, d y_r / d a (Active, per lane)", da[k],
                std::sin(xs[r]) * xs[(r + 1) % n], TOL);
    check_close("reverse batch, output shadow consumed", (k == 0 ? dy0 : dy1)[r], 0, 0);
  }

  // Reverse, references and an Active scalar: a scalar result is seeded
  // with 1 in every lane.
  const double rx = 3.0, ry = 4.0;
  double drx[2] = {0, 0}, dry[2] = {0, 1};
  auto [dsc] = tapestry::autodiff<tapestry::Reverse, scaled_norm>(
      tapestry::Active(2.0),
      tapestry::BatchDuplicated<const double &, 2>(rx, {&drx[0], &drx[1]}),
      tapestry::BatchDuplicated<const double &, 2>(ry, {&dry[0], &dry[1]}));
  for (int k = 0; k < 2; ++k) {
    check_close("reverse batch reference, d/da", dsc[k], 5.0, TOL);
    check_close("reverse batch reference, d/dx", drx[k], 2.0 * rx / 5, TOL);
    check_close("reverse batch reference, d/dy", dry[k] - k, 2.0 * ry / 5, TOL);
  }
  return check_report();
}
