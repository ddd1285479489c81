// Virtual calls whose dynamic type is known (issue 8 items 1 and 6): the
// object is constructed locally inside the differentiated function and then
// called through a base-class reference or pointer, in reverse and forward
// mode, against analytic derivatives. (When the dynamic type is not known the
// request is an error: cpp-virtual-unknown.cpp.)
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>

extern "C" int enzyme_dup, enzyme_const, enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

struct Shape {
  virtual ~Shape() = default;
  virtual double area(double s) const = 0;
  double twice(double s) const { return 2 * area(s); } // non-virtual calling virtual
};
struct Square : Shape {
  double area(double s) const override { return s * s; }
};
struct Circle : Shape {
  double k;
  explicit Circle(double k) : k(k) {}
  double area(double r) const override { return k * r * r * std::sin(r); }
};
struct Ring final : Circle {
  using Circle::Circle;
  double area(double r) const override { return Circle::area(r) - std::exp(-r); }
};

static double eval(const Shape &sh, double x) { return sh.area(x); }

double known_square(double x) {
  Square s;
  return eval(s, x) + s.twice(x);
}
double known_circle(double x, double k) {
  Circle c(k);
  const Shape &r = c;
  return r.area(x);
}
double known_ring(double x, double k) {
  Ring g(k);
  const Shape *p = &g;
  return p->twice(x) * x;
}

int main() {
  const double TOL = 1e-12;
  double x = 0.8, k = 1.7;
  double circ_dx = k * (2 * x * std::sin(x) + x * x * std::cos(x));
  double ring = k * x * x * std::sin(x) - std::exp(-x);
  double ring_dx = circ_dx + std::exp(-x);

  check_close("Square via base reference: reverse",
              __enzyme_autodiff((void *)known_square, x), 6 * x, TOL);
  check_close("Square via base reference: forward",
              __enzyme_fwddiff((void *)known_square, enzyme_dup, x, 1.0), 6 * x, TOL);
  check_close("Circle via base reference: reverse d/dx",
              __enzyme_autodiff((void *)known_circle, enzyme_out, x, enzyme_const, k),
              circ_dx, TOL);
  check_close("Circle via base reference: reverse d/dk",
              __enzyme_autodiff((void *)known_circle, enzyme_const, x, enzyme_out, k),
              x * x * std::sin(x), TOL);
  check_close("Circle via base reference: forward",
              __enzyme_fwddiff((void *)known_circle, enzyme_dup, x, 1.0, enzyme_dup, k, 0.5),
              circ_dx + 0.5 * x * x * std::sin(x), TOL);
  check_close("Ring via base pointer: reverse",
              __enzyme_autodiff((void *)known_ring, enzyme_out, x, enzyme_const, k),
              2 * ring + 2 * x * ring_dx, TOL);
  check_close("Ring via base pointer: forward",
              __enzyme_fwddiff((void *)known_ring, enzyme_dup, x, 1.0, enzyme_const, k),
              2 * ring + 2 * x * ring_dx, TOL);
  return check_report();
}
