// Small C++ value and owning types inside differentiated functions: a
// struct {double; bool} copy-assigned (its padding bytes are copied too),
// std::optional<double> assigned on a branch, and a virtual call through
// std::unique_ptr to an object made in the function (the dynamic type is
// found through the unique_ptr's nested constructors, at -O0 too). Expected
// values are analytic.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -g -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <enzyme/enzyme>

#include <cmath>
#include <memory>
#include <optional>

struct Flagged {
  double v;
  bool set;
};

double assign_flagged(double x, int k) {
  Flagged o{0.0, false};
  Flagged t{x * x, true};
  if (k > 0)
    o = t;
  return o.set ? o.v * std::sin(x) : 0.0;
}

double optional_square(double x, int k) {
  std::optional<double> o;
  if (k > 2)
    o = x * x;
  return o.value_or(1.0) * x;
}

struct Shape {
  virtual ~Shape() = default;
  virtual double area(double s) const = 0;
};
struct Square : Shape {
  double area(double s) const override { return s * s; }
};
struct Disc : Shape {
  double area(double s) const override { return 3.0 * s * s * s; }
};

double owned_square(double s) {
  std::unique_ptr<Shape> p(new Square());
  return p->area(s);
}
double owned_disc(double s) {
  std::unique_ptr<Shape> p = std::make_unique<Disc>();
  return p->area(s);
}

int main() {
  const double x = 0.6;
  check_close("struct {double; bool} assignment",
              enzyme::get<0>(enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(
                  assign_flagged, enzyme::Active(x), enzyme::Const(1)))),
              2 * x * std::sin(x) + x * x * std::cos(x), 1e-12);
  check_close("std::optional assigned",
              enzyme::get<0>(enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(
                  optional_square, enzyme::Active(x), enzyme::Const(3)))),
              3 * x * x, 1e-12);
  check_close("std::optional empty",
              enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(
                  optional_square, enzyme::Duplicated(x, 1.0), enzyme::Const(0))),
              1.0, 1e-12);
  check_close("unique_ptr virtual call, Square",
              enzyme::get<0>(enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(
                  owned_square, enzyme::Active(1.5)))),
              3.0, 1e-12);
  check_close("unique_ptr virtual call, Disc",
              enzyme::get<0>(enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(
                  owned_disc, enzyme::Active(1.5)))),
              9.0 * 1.5 * 1.5, 1e-12);
  return check_report();
}
