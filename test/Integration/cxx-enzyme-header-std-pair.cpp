// std::pair<double, double>, the most common two-value result in C++,
// through <enzyme/enzyme>: not trivially copyable (its assignment is
// user-provided) but trivial for calls, so the ABI passes and returns it in
// registers like struct {double x, y;}. The header used to treat it as a
// class passed by hidden reference: a pair argument was a static_assert, a
// pair result "has type pointer, not the parameter's type". Forward mode
// with DuplicatedNoNeed<pair> gives the tangent pair, Active<pair> seeds
// both members in reverse mode (Enzyme's rule), and an Active pair argument
// comes back as a pair. A pair of a double and a std::string is still a
// class passed by reference. Expected values are analytic.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

#include <enzyme/enzyme>

#include <cmath>
#include <string>
#include <type_traits>
#include <utility>

using P2 = std::pair<double, double>;
static_assert(!std::is_trivially_copyable_v<P2>,
              "the case under test: a pair is not trivially copyable");

P2 polar(double t, double r) { return {r * std::cos(t), r * std::sin(t)}; }
double area(P2 p, double s) { return s * p.first * p.second; }
// A pair holding a std::string is not trivial for calls.
double labelled(const std::pair<double, std::string> &p, double x) {
  return p.first * x * static_cast<double>(p.second.size());
}

int main() {
  double t = 0.6, r = 1.7;
  {
    auto f = enzyme::autodiff<enzyme::Forward, enzyme::DuplicatedNoNeed<P2>>(
        polar, enzyme::Duplicated<double>(t, 1.0), enzyme::Const<double>(r));
    P2 dt = enzyme::get<0>(f);
    check_close("forward d/dt first", dt.first, -r * std::sin(t), 1e-12);
    check_close("forward d/dt second", dt.second, r * std::cos(t), 1e-12);
  }
  {
    auto f = enzyme::autodiff<enzyme::Forward, enzyme::Duplicated<P2>>(
        polar, enzyme::Const<double>(t), enzyme::Duplicated<double>(r, 1.0));
    // Enzyme's order: primal, then tangent.
    P2 primal = enzyme::get<0>(f), dr = enzyme::get<1>(f);
    check_close("forward d/dr first", dr.first, std::cos(t), 1e-12);
    check_close("forward d/dr second", dr.second, std::sin(t), 1e-12);
    check_close("forward primal", primal.second, r * std::sin(t), 1e-12);
  }
  {
    // Active<P2>: the gradient of first + second.
    auto g = enzyme::autodiff<enzyme::Reverse, enzyme::Active<P2>>(
        polar, enzyme::Active(t), enzyme::Active(r));
    auto [dt, dr] = enzyme::get<0>(g);
    check_close("reverse d/dt", dt, -r * std::sin(t) + r * std::cos(t), 1e-12);
    check_close("reverse d/dr", dr, std::cos(t) + std::sin(t), 1e-12);
  }
  {
    auto g = enzyme::autodiff<enzyme::Reverse>(
        area, enzyme::Active<P2>(P2{2.0, 3.0}), enzyme::Active<double>(1.5));
    P2 dp = enzyme::get<0>(enzyme::get<0>(g));
    check_close("Active pair argument first", dp.first, 1.5 * 3.0, 1e-12);
    check_close("Active pair argument second", dp.second, 1.5 * 2.0, 1e-12);
    check_close("Active pair argument s", enzyme::get<1>(enzyme::get<0>(g)),
                6.0, 1e-12);
  }
  {
    std::pair<double, std::string> p{2.5, "abc"};
    auto g = enzyme::autodiff<enzyme::Reverse>(
        labelled, enzyme::Const<const std::pair<double, std::string> &>(p),
        enzyme::Active<double>(0.4));
    check_close("pair with a string", enzyme::get<0>(enzyme::get<0>(g)),
                2.5 * 3, 1e-12);
  }
  return check_report();
}
