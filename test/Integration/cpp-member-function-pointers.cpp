// Calls through pointers to member functions chosen at run time (probe21a
// R2): a member pointer holds a function's address as an integer (or a
// vtable offset, for a virtual member), and the call casts it back to a
// pointer, which was refused as "a pointer computed at run time (an
// integer cast to a pointer) may point to differentiable memory". A
// pointer that is only called points to code and needs no shadow; the call
// is dispatched over the functions it may be. Cases: non-virtual members,
// virtual members, a member of a second base (the this pointer adjusted),
// and a member that updates the object's active state, called in a loop.
// Reverse and forward mode. Expected: analytic.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>

extern "C" {
extern int enzyme_const, enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

struct Poly {
  double a;
  double square(double x) const { return a * x * x; }
  double cube(double x) const { return a * x * x * x; }
};

// f = a x^3 (which != 0) or a x^2, with a = 1.5.
double plain(double x, int which) {
  double (Poly::*m)(double) const = which ? &Poly::cube : &Poly::square;
  Poly p{1.5};
  return (p.*m)(x);
}

struct Shape {
  virtual ~Shape() = default;
  virtual double area(double s) const { return s * s; }
  virtual double perimeter(double s) const { return 4 * s; }
};
struct Circle : Shape {
  double area(double r) const override { return M_PI * r * r; }
  double perimeter(double r) const override { return 2 * M_PI * r; }
};

// Virtual members through a member pointer: pi r^2 or 2 pi r.
double virtualMember(double r, int which) {
  double (Shape::*m)(double) const = which ? &Shape::area : &Shape::perimeter;
  Circle c;
  const Shape &s = c;
  return (s.*m)(r);
}

struct Tag {
  int id = 7;
};
struct Scaled : Tag, Poly {
  double k = 2;
  double scaled(double x) const { return k * square(x); }
};

// A member of the second base: this is adjusted to the Poly part.
double secondBase(double x, int) {
  double (Poly::*m)(double) const = &Poly::cube;
  Scaled s;
  s.a = 0.5;
  return (s.*m)(x) + s.scaled(x);
}

struct Integrator {
  double state;
  void step(double h) { state += h * std::sin(state); }
  void half(double h) { state += 0.5 * h * state; }
};

// x_{k+1} = x_k + h sin x_k (which != 0) or x_k (1 + h/2), 5 steps.
double stepper(double x, int which) {
  void (Integrator::*m)(double) = which ? &Integrator::step : &Integrator::half;
  Integrator in{x};
  for (int k = 0; k < 5; k++)
    (in.*m)(0.1);
  return in.state;
}

static double stepperDerivative(double x, int which) {
  double d = 1;
  for (int k = 0; k < 5; k++) {
    d *= which ? 1 + 0.1 * std::cos(x) : 1.05;
    x = which ? x + 0.1 * std::sin(x) : x * 1.05;
  }
  return d;
}

int main() {
  volatile double vx = 1.3;
  double x = vx;
  for (int which = 0; which < 2; which++) {
    char what[48];
    double want = which ? 4.5 * x * x : 3 * x;
    snprintf(what, sizeof what, "plain %d reverse", which);
    check_close(what,
                __enzyme_autodiff((void *)plain, enzyme_out, x, enzyme_const,
                                  which),
                want, 1e-13);
    snprintf(what, sizeof what, "plain %d forward", which);
    check_close(what,
                __enzyme_fwddiff((void *)plain, enzyme_dup, x, 1.0,
                                 enzyme_const, which),
                want, 1e-13);
    want = which ? 2 * M_PI * x : 2 * M_PI;
    snprintf(what, sizeof what, "virtual %d reverse", which);
    check_close(what,
                __enzyme_autodiff((void *)virtualMember, enzyme_out, x,
                                  enzyme_const, which),
                want, 1e-13);
    snprintf(what, sizeof what, "virtual %d forward", which);
    check_close(what,
                __enzyme_fwddiff((void *)virtualMember, enzyme_dup, x, 1.0,
                                 enzyme_const, which),
                want, 1e-13);
    want = stepperDerivative(x, which);
    snprintf(what, sizeof what, "stepper %d reverse", which);
    check_close(what,
                __enzyme_autodiff((void *)stepper, enzyme_out, x,
                                  enzyme_const, which),
                want, 1e-13);
    snprintf(what, sizeof what, "stepper %d forward", which);
    check_close(what,
                __enzyme_fwddiff((void *)stepper, enzyme_dup, x, 1.0,
                                 enzyme_const, which),
                want, 1e-13);
  }
  // d/dx (0.5 x^3 + 2 * 0.5 x^2) = 1.5 x^2 + 2 x.
  check_close("second base reverse",
              __enzyme_autodiff((void *)secondBase, enzyme_out, x,
                                enzyme_const, 0),
              1.5 * x * x + 2 * x, 1e-13);
  check_close("second base forward",
              __enzyme_fwddiff((void *)secondBase, enzyme_dup, x, 1.0,
                               enzyme_const, 0),
              1.5 * x * x + 2 * x, 1e-13);
  return check_report();
}
