// At -O0, a lambda returning a class that is not trivially copyable
// (std::vector<double>) through <enzyme/enzyme> in forward mode: the
// unoptimised invoker spills the lambda's arguments into memory that holds
// both the Duplicated vector and the Const weight, so the vector's copy
// (a memmove of its elements) reads through a pointer that is constant or
// not only at run time, and tests its shadow there (runtime activity).
// Until that test existed this was rejected ("argument 2 of this call is a
// pointer read from memory that also holds pointers to constant data").
// d/du (w u) along du = w du.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// CHECK: ALL PASSED
#include "Inputs/check.h"

#include <enzyme/enzyme>

#include <vector>

int main() {
  std::vector<double> u{1.0, -2.0}, du{0.0, 1.0};
  double w = 1.5;
  auto scale = [](const std::vector<double> &u, const double &w) {
    auto r = u;
    for (auto &e : r)
      e *= w;
    return r;
  };
  auto t = enzyme::get<0>(
      enzyme::autodiff<enzyme::Forward,
                       enzyme::DuplicatedNoNeed<std::vector<double>>>(
          scale, enzyme::Duplicated<const std::vector<double> &>{u, du},
          enzyme::Const<const double &>{w}));
  check_close("scale tangent [0]", t[0], w * du[0], 1e-12);
  check_close("scale tangent [1]", t[1], w * du[1], 1e-12);
  check_close("u unchanged", u[1], -2.0, 0);
  return check_report();
}
