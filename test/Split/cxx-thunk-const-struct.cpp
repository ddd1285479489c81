// tapestry::thunk with a struct of two eightbytes passed by value and held
// constant (Const<S>): the C ABI passes it as two values, and the thunk's
// markers, one per source parameter as the C++ API writes them, were read
// one per value ("give one marker per value, 3 markers rather than 2",
// advice a C++ user cannot follow: probe25a F2). A marker now covers all
// the pieces of a struct the ABI splits. Both shapes of two eightbytes:
// {double, double} and {double, int}. Gradients against the analytic ones.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <cmath>
#include <tapestry/tapestry.hpp>

struct Coeffs {
  double a, b;
};
struct Scaled {
  double a;
  int k;
};

// a x0^2 + b sin(x1)
double poly(const double *x, Coeffs c) {
  return c.a * x[0] * x[0] + c.b * std::sin(x[1]);
}
// a k x0 x1
double scaled(const double *x, Scaled s) { return s.a * s.k * x[0] * x[1]; }

int main() {
  double x[2] = {0.5, 0.25};
  {
    auto t = tapestry::thunk<poly, tapestry::Duplicated<const double *>,
                             tapestry::Const<Coeffs>>();
    Coeffs c{2.0, 3.0};
    double dx[2] = {0, 0};
    auto [y, pb] = t.pullback(x, dx, c);
    check_close("poly primal", y, 2.0 * 0.25 + 3.0 * std::sin(0.25), 1e-15);
    std::move(pb)(1.0);
    check_close("poly d/dx0", dx[0], 2 * 2.0 * x[0], 1e-15);
    check_close("poly d/dx1", dx[1], 3.0 * std::cos(x[1]), 1e-15);
  }
  {
    auto t = tapestry::thunk<scaled, tapestry::Duplicated<const double *>,
                             tapestry::Const<Scaled>>();
    Scaled s{1.5, 4};
    double dx[2] = {0, 0};
    auto [y, pb] = t.pullback(x, dx, s);
    check_close("scaled primal", y, 1.5 * 4 * x[0] * x[1], 1e-15);
    std::move(pb)(1.0);
    check_close("scaled d/dx0", dx[0], 1.5 * 4 * x[1], 1e-15);
    check_close("scaled d/dx1", dx[1], 1.5 * 4 * x[0], 1e-15);
  }
  return check_report();
}
