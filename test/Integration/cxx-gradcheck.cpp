// clang-format off
// The C++ face of the finite-difference checker (tapestry/gradcheck.hpp):
// functions, capturing lambdas and functors, std::vector or pointers. A
// gradient from tapestry::gradient and a Jacobian from forward mode agree;
// a perturbed entry is found; sizes that differ throw. (Expected values:
// the analytic derivatives; the checker is what is under test.)
// RUN: %clangxx -std=c++17 -O0 %s %tapestry_rt -lm -o %t0 && %t0 2>%t0.err | FileCheck %s && FileCheck %s --check-prefix=REPORT < %t0.err
// RUN: %clangxx -std=c++17 -O2 %s %tapestry_rt -lm -o %t2 && %t2 2>%t2.err | FileCheck %s && FileCheck %s --check-prefix=REPORT < %t2.err
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// REPORT: tapestry_check_gradient: 3 of 3 entries checked, 0 mismatches
// REPORT: tapestry_check_gradient: 3 of 3 entries checked, 1 mismatch
// REPORT-NEXT: entry
// REPORT-NEXT: [1] MISMATCH
// REPORT-NOT: tapestry_check_jacobian: {{.*}} 1 mismatch
// clang-format on
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <tapestry/enzyme.h>
#include <tapestry/gradcheck.hpp>
#include <tapestry/tapestry.hpp>
#include <vector>

static int failures = 0;
static void check(const char *what, bool ok) {
  failures += !ok;
  std::printf("%s %s\n", ok ? "PASS" : "FAIL", what);
}

// f(x) = exp(x0) x1 + x2^2 sin(x1)
static double f(const double *x) {
  return std::exp(x[0]) * x[1] + x[2] * x[2] * std::sin(x[1]);
}

static double g(double a, double b) { return a * a * b + std::log(b); }

struct Spring {
  double k;
  double operator()(const double *x) const { return 0.5 * k * x[0] * x[0]; }
};

int main() {
  std::vector<double> x = {0.3, -0.8, 1.7}, dx(3, 0.0);
  __enzyme_autodiff((void *)f, enzyme_dup, x.data(), dx.data());
  check("gradient of a function agrees",
        tapestry::check_gradient(f, x, dx) == 0);
  std::vector<double> wrong = dx;
  wrong[1] -= 0.5;
  tapestry::check_result r;
  check("a wrong component is found",
        tapestry::check_gradient(f, x, wrong, {}, &r) == 1 && r.worst == 1);

  // tapestry::gradient of a function of scalars, checked through a lambda.
  double a = 1.25, b = 2.5;
  auto gr = tapestry::gradient<g>(a, b);
  double ab[2] = {a, b}, gab[2] = {gr[0], gr[1]};
  tapestry::check_options quiet{};
  quiet.quiet = 1;
  check("lambda over tapestry::gradient",
        tapestry::check_gradient([](const double *v) { return g(v[0], v[1]); },
                                 2, ab, gab, quiet) == 0);
  check("analytic da", std::fabs(gr[0] - 2 * a * b) < 1e-12);

  // A functor with state; its derivative by hand.
  Spring s{3.0};
  double xs[1] = {0.4}, ds[1] = {3.0 * 0.4};
  check("functor", tapestry::check_gradient(s, 1, xs, ds, quiet) == 0);

  // Jacobian of a capturing lambda, from forward-mode columns of h.
  double scale = 2.0;
  auto F = [&](const double *v, double *y) {
    y[0] = scale * v[0] * v[1];
    y[1] = std::cos(v[1]);
  };
  double v[2] = {0.5, 1.5}, J[4];
  for (int j = 0; j < 2; j++) {
    double dv[2] = {double(j == 0), double(j == 1)}, y[2], dy[2];
    struct H {
      static void h(const double *v, double *y) {
        y[0] = 2.0 * v[0] * v[1];
        y[1] = std::cos(v[1]);
      }
    };
    __enzyme_fwddiff((void *)H::h, enzyme_dup, v, dv, enzyme_dup, y, dy);
    J[0 * 2 + j] = dy[0];
    J[1 * 2 + j] = dy[1];
  }
  check("Jacobian agrees", tapestry::check_jacobian(F, 2, 2, v, J) == 0);

  bool threw = false;
  try {
    tapestry::check_gradient(f, x, std::vector<double>(2), quiet);
  } catch (const std::invalid_argument &) {
    threw = true;
  }
  check("sizes that differ throw", threw);
  std::printf("%s\n", failures ? "FAILED" : "ALL PASSED");
  return failures != 0;
}
