// __enzyme_autodiff on a function that returns a struct of floating-point
// members in registers, with Enzyme's rule: the result is active by default
// (and with enzyme_active_return) and every member is seeded with 1, so the
// adjoints are those of the sum of the members; enzyme_const_return seeds
// nothing. Also batch mode (enzyme_width 2: each lane seeded with 1), a
// struct of four floats, and a caller of such a function. Expected values
// are analytic derivatives or central finite differences.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 -g %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_out, enzyme_const, enzyme_active_return,
    enzyme_const_return, enzyme_width;
typedef struct {
  double x, y;
} V2;
typedef struct {
  float a, b, c, d;
} F4;
typedef struct {
  double dt, dr;
} Grad;
typedef struct {
  double lane[2];
} Lanes;
Grad __enzyme_autodiff(void *, ...);
float __enzyme_autodiff_f(void *, ...) __asm__("__enzyme_autodiff");
double __enzyme_autodiff_d(void *, ...) __asm__("__enzyme_autodiff");
Lanes __enzyme_autodiff_l(void *, ...) __asm__("__enzyme_autodiff");

V2 polar(double t, double r) {
  V2 v = {r * cos(t), r * sin(t)};
  return v;
}
F4 powers(float t) {
  F4 v = {t, t * t, 2 * t, t * t * t};
  return v;
}
double area(double t, double r) {
  V2 p = polar(t, r);
  return p.x * p.y;
}
static double polar_sum(double t, double r) {
  V2 v = polar(t, r);
  return v.x + v.y;
}

int main(void) {
  double t = 0.7, r = 1.3, H = 1e-6, TOL = 1e-6;
  Grad g = __enzyme_autodiff((void *)polar, enzyme_out, t, enzyme_out, r);
  check_close("polar d/dt", g.dt, -r * sin(t) + r * cos(t), TOL);
  check_close("polar d/dr", g.dr, cos(t) + sin(t), TOL);
  check_close("polar d/dt vs FD", g.dt, CENTRAL_DIFF(polar_sum(t_, r), t, H),
              TOL);
  Grad a = __enzyme_autodiff((void *)polar, enzyme_active_return, enzyme_out,
                             t, enzyme_out, r);
  check_close("enzyme_active_return d/dr", a.dr, cos(t) + sin(t), TOL);
  Grad c = __enzyme_autodiff((void *)polar, enzyme_const_return, enzyme_out, t,
                             enzyme_out, r);
  check_close("enzyme_const_return d/dt", c.dt, 0.0, TOL);
  check_close("enzyme_const_return d/dr", c.dr, 0.0, TOL);
  float ft = 1.5f;
  float df = __enzyme_autodiff_f((void *)powers, enzyme_out, ft);
  check_close("powers d/dt", df, 1 + 2 * ft + 2 + 3 * ft * ft, 1e-5);
  double da =
      __enzyme_autodiff_d((void *)area, enzyme_out, t, enzyme_const, r);
  check_close("area d/dt", da, r * r * cos(2 * t), TOL);
  Lanes l = __enzyme_autodiff_l((void *)polar, enzyme_width, 2, enzyme_out, t,
                                enzyme_const, r);
  check_close("batch lane 0", l.lane[0], -r * sin(t) + r * cos(t), TOL);
  check_close("batch lane 1", l.lane[1], -r * sin(t) + r * cos(t), TOL);
  return check_report();
}
