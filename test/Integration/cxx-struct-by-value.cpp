// Structs taken by value through the C++ APIs (issue 14 item 7):
// tapestry::Active<Vec> returns the adjoint as a Vec, Duplicated<Vec>(v, dv)
// in forward mode takes the tangent as a Vec, Const<Vec> is not
// differentiated, and a function returning a Vec gives its tangent as a Vec
// in forward mode; a lambda taking a struct; the same through
// <enzyme/enzyme>. Vec2 is passed as two doubles, Vec3 in memory (byval),
// Vec2f as one <2 x float>. Expected values are central finite differences
// (analytic for floats and the lambda), and forward is compared with
// reverse.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 -g %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 -g %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <enzyme/enzyme>
#include <tapestry/tapestry.hpp>

#include <cmath>

struct Vec2 {
  double x, y;
};
struct Vec3 {
  double x, y, z;
};
struct Vec2f {
  float x, y;
};

double e2(Vec2 v, double s) { return s * std::sin(v.x) * v.y + v.y * v.y; }
double e3(Vec3 v) { return v.x * std::exp(v.y) + v.z * v.z * v.x; }
double ef(Vec2f v) { return (double)v.x * v.x * v.y; }
Vec2 rot(double t, double r) { return {r * std::cos(t), r * std::sin(t)}; }

static const double H = 1e-6, TOL = 1e-6;

int main() {
  Vec2 v{0.7, 1.3}, dv{0.4, -1.1};
  double s = 1.9;
  double ga = CENTRAL_DIFF(e2(Vec2{t_, v.y}, s), v.x, H);
  double gb = CENTRAL_DIFF(e2(Vec2{v.x, t_}, s), v.y, H);
  double gs = CENTRAL_DIFF(e2(v, t_), s, H);
  double fd2 = CENTRAL_DIFF(e2(Vec2{v.x + t_ * dv.x, v.y + t_ * dv.y}, s), 0.0, H);

  // tapestry::autodiff
  auto [g, gsc] = tapestry::autodiff<tapestry::Reverse, e2>(tapestry::Active(v),
                                                            tapestry::Active(s));
  static_assert(std::is_same_v<decltype(g), Vec2>, "the adjoint of a Vec2 is a Vec2");
  check_close("e2 rev Active<Vec2>: x", g.x, ga, TOL);
  check_close("e2 rev Active<Vec2>: y", g.y, gb, TOL);
  check_close("e2 rev Active(s)", gsc, gs, TOL);
  auto [gc] = tapestry::autodiff<tapestry::Reverse, e2>(tapestry::Const(v),
                                                        tapestry::Active(s));
  check_close("e2 rev Const<Vec2>", gc, gs, TOL);
  double t = tapestry::autodiff<tapestry::Forward, e2>(tapestry::Duplicated(v, dv),
                                                       tapestry::Const(s));
  check_close("e2 fwd Duplicated<Vec2>", t, fd2, TOL);
  check_close("e2 fwd vs rev", dv.x * g.x + dv.y * g.y, t, TOL);
  auto [pv, tp] = tapestry::autodiff<tapestry::ForwardWithPrimal, e2>(
      tapestry::Duplicated(v, dv), tapestry::Const(s));
  check_close("e2 fwd with primal: primal", pv, e2(v, s), TOL);
  check_close("e2 fwd with primal: tangent", tp, fd2, TOL);

  Vec3 w{0.6, 0.2, -1.4}, dw{0.3, 0.5, -0.7};
  auto [g3] = tapestry::autodiff<tapestry::Reverse, e3>(tapestry::Active(w));
  static_assert(std::is_same_v<decltype(g3), Vec3>, "the adjoint of a Vec3 is a Vec3");
  check_close("e3 rev Active<Vec3>: x", g3.x, CENTRAL_DIFF(e3(Vec3{t_, w.y, w.z}), w.x, H), TOL);
  check_close("e3 rev Active<Vec3>: y", g3.y, CENTRAL_DIFF(e3(Vec3{w.x, t_, w.z}), w.y, H), TOL);
  check_close("e3 rev Active<Vec3>: z", g3.z, CENTRAL_DIFF(e3(Vec3{w.x, w.y, t_}), w.z, H), TOL);
  double t3 = tapestry::autodiff<tapestry::Forward, e3>(tapestry::Duplicated(w, dw));
  check_close("e3 fwd Duplicated<Vec3>", t3,
              CENTRAL_DIFF(e3(Vec3{w.x + t_ * dw.x, w.y + t_ * dw.y, w.z + t_ * dw.z}), 0.0, H),
              TOL);

  Vec2f p{1.5f, -2.0f}, dp{1.0f, 0.5f};
  auto [gp] = tapestry::autodiff<tapestry::Reverse, ef>(tapestry::Active(p));
  check_close("ef rev Active<Vec2f>: x", gp.x, 2 * 1.5 * -2.0, 1e-6);
  check_close("ef rev Active<Vec2f>: y", gp.y, 1.5 * 1.5, 1e-6);
  check_close("ef fwd Duplicated<Vec2f>",
              tapestry::autodiff<tapestry::Forward, ef>(tapestry::Duplicated(p, dp)),
              2 * 1.5 * -2.0 * 1.0 + 1.5 * 1.5 * 0.5, 1e-6);

  // A struct result: its tangent, as the struct.
  Vec2 tr = tapestry::autodiff<tapestry::Forward, rot>(tapestry::Duplicated(0.8, 1.0),
                                                       tapestry::Duplicated(2.0, 0.5));
  check_close("rot fwd: x", tr.x, CENTRAL_DIFF(rot(0.8 + t_, 2.0 + 0.5 * t_).x, 0.0, H), TOL);
  check_close("rot fwd: y", tr.y, CENTRAL_DIFF(rot(0.8 + t_, 2.0 + 0.5 * t_).y, 0.0, H), TOL);

  // A lambda taking a struct by value (through its invoker).
  double k = 3.0;
  auto lam = [k](Vec2 u, double r) { return k * u.x * u.y + r * u.y; };
  auto [gl, glr] = tapestry::autodiff<tapestry::Reverse>(lam, tapestry::Active(v),
                                                         tapestry::Active(s));
  check_close("lambda rev Active<Vec2>: x", gl.x, 3.0 * v.y, TOL);
  check_close("lambda rev Active<Vec2>: y", gl.y, 3.0 * v.x + s, TOL);
  check_close("lambda rev Active(r)", glr, v.y, TOL);

  // <enzyme/enzyme>: the same requests, as Enzyme's header spells them.
  auto eg = enzyme::get<0>(
      enzyme::autodiff<enzyme::Reverse>(e2, enzyme::Active(v), enzyme::Const(s)));
  check_close("enzyme rev Active<Vec2>: x", enzyme::get<0>(eg).x, ga, TOL);
  check_close("enzyme rev Active<Vec2>: y", enzyme::get<0>(eg).y, gb, TOL);
  double et = enzyme::get<0>(
      enzyme::autodiff<enzyme::Forward>(e2, enzyme::Duplicated<Vec2>(v, dv), enzyme::Const(s)));
  check_close("enzyme fwd Duplicated<Vec2>", et, fd2, TOL);
  auto eg3 = enzyme::get<0>(enzyme::get<0>(
      enzyme::autodiff<enzyme::Reverse>(e3, enzyme::Active<Vec3>(w))));
  check_close("enzyme rev Active<Vec3>: z", eg3.z,
              CENTRAL_DIFF(e3(Vec3{w.x, w.y, t_}), w.z, H), TOL);
  return check_report();
}
