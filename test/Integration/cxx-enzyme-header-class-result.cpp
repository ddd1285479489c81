// <enzyme/enzyme> in forward mode with a result of a class that is not
// trivially copyable, as Enzyme's header allows: RetActivity
// DuplicatedNoNeed<std::vector<double>> gives the tangent vector,
// Duplicated<std::vector<double>> the primal and the tangent. The
// derivative builds the tangent object itself (a vector whose buffer is the
// shadow of the primal's). Checked against analytic derivatives, with
// -fplugin too (the front-end part loaded).
// RUN: %clangxx -std=c++17 -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx_fplugin -std=c++17 -O0 %s -lm -o %t4 && %t4 | FileCheck %s
// RUN: %clangxx_fplugin -std=c++17 -O2 %s -lm -o %t5 && %t5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <enzyme/enzyme>
#include <vector>

// y_i = 3 x_i^2 sin(x_i), built in a local vector and returned.
std::vector<double> cubed(const std::vector<double> &x) {
  std::vector<double> r(x.size());
  for (size_t i = 0; i < x.size(); i++)
    r[i] = 3.0 * x[i] * x[i] * sin(x[i]);
  return r;
}

// A copy of the argument.
std::vector<double> same(const std::vector<double> &x) { return x; }

// Grown element by element: y_i = a^2 i.
std::vector<double> ramp(double a) {
  std::vector<double> r;
  for (int i = 0; i < 5; i++)
    r.push_back(a * a * i);
  return r;
}

int main() {
  std::vector<double> x{1.5, -2.0, 0.25}, dx{1.0, 0.5, 2.0};
  auto d = enzyme::get<0>(
      enzyme::autodiff<enzyme::Forward,
                       enzyme::DuplicatedNoNeed<std::vector<double>>>(
          cubed, enzyme::Duplicated<const std::vector<double> &>(x, dx)));
  check_close("cubed: tangent size", d.size(), 3, 0);
  for (int i = 0; i < 3; i++)
    check_close("cubed: tangent",
                d[i],
                (6 * x[i] * sin(x[i]) + 3 * x[i] * x[i] * cos(x[i])) * dx[i],
                1e-12);

  auto t = enzyme::autodiff<enzyme::Forward,
                            enzyme::Duplicated<std::vector<double>>>(
      same, enzyme::Duplicated<const std::vector<double> &>(x, dx));
  for (int i = 0; i < 3; i++) {
    check_close("same: primal", enzyme::get<0>(t)[i], x[i], 0);
    check_close("same: tangent", enzyme::get<1>(t)[i], dx[i], 0);
  }

  double a = 1.5;
  auto g = enzyme::autodiff<enzyme::Forward,
                            enzyme::Duplicated<std::vector<double>>>(
      ramp, enzyme::Duplicated<double>(a, 1.0));
  check_close("ramp: primal size", enzyme::get<0>(g).size(), 5, 0);
  check_close("ramp: tangent size", enzyme::get<1>(g).size(), 5, 0);
  for (int i = 0; i < 5; i++) {
    check_close("ramp: primal", enzyme::get<0>(g)[i], a * a * i, 1e-12);
    check_close("ramp: tangent", enzyme::get<1>(g)[i], 2 * a * i, 1e-12);
  }
  return check_report();
}
