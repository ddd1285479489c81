// Every C++ header Tapestry installs compiles under the short macros users
// define before their includes (Inputs/user-macros.h: every letter, N, T,
// dx, args, tape, ...), and works: <enzyme/enzyme>, <tapestry/tapestry.hpp>
// (with split mode) and <tapestry/gradcheck.hpp>. The standard headers come
// first (libstdc++ is not ours to check). Expected values analytic:
// f(x, y) = x^2 y + sin(y): df/dx = 2xy, df/dy = x^2 + cos(y).
// RUN: %clangxx -std=c++17 -O0 %s %tapestry_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s %tapestry_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++20 -O1 %s %tapestry_rt -o %t1 && %t1 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "Inputs/user-macros.h"
#include <enzyme/enzyme>
#include <tapestry/gradcheck.hpp>
#include <tapestry/tapestry.hpp>
#include "Inputs/user-macros-undef.h"

double f(double x, double y) { return x * x * y + std::sin(y); }

double sumsq(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i] * v[i];
  return s;
}

int main() {
  double x = 0.6, y = 1.3;
  double gx = 2 * x * y, gy = x * x + std::cos(y);

  auto [ex, ey] = enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(
      f, enzyme::Active(x), enzyme::Active(y)));
  check_close("enzyme::autodiff df/dx", ex, gx, 1e-12);
  check_close("enzyme::autodiff df/dy", ey, gy, 1e-12);
  double et = enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(
      f, enzyme::Const(x), enzyme::Duplicated(y, 1.0)));
  check_close("enzyme forward df/dy", et, gy, 1e-12);

  auto g = tapestry::gradient<f>(x, y);
  check_close("tapestry::gradient df/dx", std::get<0>(g), gx, 1e-12);
  check_close("tapestry::gradient df/dy", std::get<1>(g), gy, 1e-12);

  // Split mode: a reusable pullback replayed with two seeds.
  auto t = tapestry::thunk<f, tapestry::Reusable, tapestry::Active<double>,
                           tapestry::Active<double>>();
  auto [primal, pb] = t.pullback(x, y);
  check_close("thunk primal", primal, f(x, y), 1e-15);
  for (double seed : {1.0, -2.5}) {
    auto [dx, dy] = pb(seed);
    check_close("pullback df/dx * seed", dx, seed * gx, 1e-12);
    check_close("pullback df/dy * seed", dy, seed * gy, 1e-12);
  }

  // The finite-difference checker on a gradient the plugin computed.
  double v[3] = {0.5, -1.0, 2.0}, dv[3] = {0, 0, 0};
  __enzyme_autodiff<void>((void *)sumsq, enzyme_dup, v, dv, enzyme_const, 3);
  tapestry::check_options quiet{};
  quiet.quiet = 1;
  int bad = tapestry::check_gradient(
      [](const double *p) { return sumsq(p, 3); }, 3, v, dv, quiet);
  check_close("check_gradient finds no mismatch", bad, 0, 0);
  check_close("d sumsq / dv[2]", dv[2], 2 * v[2], 1e-12);
  return check_report();
}
