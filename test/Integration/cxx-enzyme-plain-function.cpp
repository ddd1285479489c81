// A program written against Enzyme's C++ header, unchanged: plain functions
// passed by name to enzyme::autodiff (Enzyme's most common spelling), in
// reverse and forward mode, float and double, by value, reference and
// pointer. Expected values are analytic derivatives.
// The plugin inlines always-inline wrappers that make requests (such as
// enzyme::autodiff) before resolving requests, so the function is known.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <enzyme/enzyme>

#include <cmath>

float square(float x) { return x * x; }
float square_ref(const float &x) { return x * x; }
double product(double x, const double *y) { return x * *y * std::sin(x); }

int main() {
  const float x = 3.0f;
  float d = enzyme::get<0>(
      enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(square, enzyme::Active{x})));
  check_close("reverse, function by name", d, 6.0, 1e-6);

  float dx = 0;
  enzyme::autodiff<enzyme::Reverse>(square_ref, enzyme::Duplicated<const float &>{x, dx});
  check_close("reverse, reference", dx, 6.0, 1e-6);

  double y = 2.0, dy = 0;
  auto r = enzyme::autodiff<enzyme::ReverseWithPrimal>(
      product, enzyme::Active(0.5), enzyme::Duplicated<const double *>(&y, &dy));
  check_close("reverse, d/dx", enzyme::get<0>(enzyme::get<0>(r)),
              y * (std::sin(0.5) + 0.5 * std::cos(0.5)), 1e-12);
  check_close("reverse, d/dy", dy, 0.5 * std::sin(0.5), 1e-12);
  check_close("reverse, primal", enzyme::get<1>(r), product(0.5, &y), 1e-12);

  float t = enzyme::get<0>(
      enzyme::autodiff<enzyme::Forward>(square, enzyme::Duplicated<float>{x, 1.0f}));
  check_close("forward, function by name", t, 6.0, 1e-6);
  return check_report();
}
