// Programs written the way Enzyme's own C++ tests and docs use
// <enzyme/enzyme>, with class types: Active of a struct of doubles (its
// adjoint comes back as that struct), Duplicated / DuplicatedNoNeed of a
// class by reference and by pointer (a class with a constructor and private
// members, and std::vector), Duplicated of a struct by value in forward
// mode, Const of a class, and functions returning a struct through sret in
// forward mode with each return activity (Enzyme's default for a non-float
// result is Const: the primal). Result shapes are checked by type, as
// Enzyme's header spells them: enzyme::tuple<enzyme::tuple<adjoints...>>,
// enzyme::tuple<enzyme::tuple<adjoints...>, primal>, enzyme::tuple<tangent>,
// enzyme::tuple<primal, tangent>. Expected values are analytic derivatives
// or central finite differences; forward is compared with reverse.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

#include <enzyme/enzyme>

#include <cmath>
#include <type_traits>
#include <vector>

struct Pair {
  double x;
  double y;
};
struct Vec3 {
  double x, y, z;
};

// A class with a constructor, private state and member functions.
class Particle {
public:
  Particle(double m, double vx, double vy) : m_(m), v_{vx, vy} {}
  double energy() const { return 0.5 * m_ * (v_[0] * v_[0] + v_[1] * v_[1]); }
  double mass() const { return m_; }
  double v(int i) const { return v_[i]; }

private:
  double m_;
  double v_[2];
};

struct Config {
  std::vector<double> weights;
  int steps;
};

double norm2(Pair p) { return p.x * p.x + p.y * p.y * p.x; }
double vec3fn(Vec3 v, double s) { return s * std::sin(v.x) * v.y + v.z * v.z; }
double kinetic(const Particle &p) { return p.energy(); }
double kinetic_ptr(const Particle *p) { return p->energy(); }
double wsum(const std::vector<double> &x, const Config &c) {
  double s = 0;
  for (int k = 0; k < c.steps; k++)
    for (size_t i = 0; i < x.size(); i++)
      s += c.weights[i] * x[i] * x[i];
  return s;
}
double mul(double x, double y) { return x * y; }
// Returned through sret (24 bytes).
Vec3 helix(double t, double r) {
  return {r * std::cos(t), r * std::sin(t), t * t};
}
// Returned in registers (two doubles).
Pair polar(double t, double r) { return {r * std::cos(t), r * std::sin(t)}; }

struct Scale {
  double k;
  double operator()(double x) {
    return k * x * x;
  } // not const, as in Enzyme's tests
};

static const double H = 1e-6, TOL = 1e-6;

int main() {
  char what[96];

  /* Active<Pair>: the adjoint comes back as a Pair. */
  {
    Pair p{0.8, -1.3};
    auto r = enzyme::autodiff<enzyme::Reverse>(norm2, enzyme::Active<Pair>(p));
    static_assert(
        std::is_same_v<decltype(r), enzyme::tuple<enzyme::tuple<Pair>>>,
        "Reverse: tuple<tuple<adjoints>>");
    Pair g = enzyme::get<0>(enzyme::get<0>(r));
    check_close("Active<Pair> d/dx", g.x, 2 * p.x + p.y * p.y, TOL);
    check_close("Active<Pair> d/dy", g.y, 2 * p.y * p.x, TOL);
  }
  /* ReverseWithPrimal with Active<Vec3> (passed byval) and Const. */
  {
    Vec3 v{0.3, 1.7, -0.6};
    double s = 2.5;
    enzyme::tuple<enzyme::tuple<Vec3>, double> r =
        enzyme::autodiff<enzyme::ReverseWithPrimal>(vec3fn, enzyme::Active(v),
                                                    enzyme::Const(s));
    Vec3 g = enzyme::get<0>(enzyme::get<0>(r));
    check_close("RWP Active<Vec3> primal", enzyme::get<1>(r), vec3fn(v, s),
                TOL);
    check_close("RWP Active<Vec3> d/dx", g.x,
                CENTRAL_DIFF(vec3fn(Vec3{t_, v.y, v.z}, s), v.x, H), TOL);
    check_close("RWP Active<Vec3> d/dy", g.y,
                CENTRAL_DIFF(vec3fn(Vec3{v.x, t_, v.z}, s), v.y, H), TOL);
    check_close("RWP Active<Vec3> d/dz", g.z, 2 * v.z, TOL);
    /* Forward over the same struct by value: Duplicated<Vec3>(v, dv). */
    Vec3 dv{1.0, -0.5, 2.0};
    auto t = enzyme::autodiff<enzyme::Forward>(
        vec3fn, enzyme::Duplicated<Vec3>(v, dv), enzyme::Const<double>(s));
    static_assert(std::is_same_v<decltype(t), enzyme::tuple<double>>,
                  "Forward: tuple<tangent>");
    check_close("Forward Duplicated<Vec3> vs reverse", enzyme::get<0>(t),
                g.x * dv.x + g.y * dv.y + g.z * dv.z, TOL);
  }
  /* Duplicated<const Particle &>: the shadow object accumulates. */
  {
    const Particle p(2.0, 0.5, -1.5);
    Particle dp(0, 0, 0);
    enzyme::autodiff<enzyme::Reverse>(
        kinetic, enzyme::Duplicated<const Particle &>(p, dp));
    check_close("Duplicated<const Particle&> dm", dp.mass(),
                0.5 * (p.v(0) * p.v(0) + p.v(1) * p.v(1)), TOL);
    check_close("Duplicated<const Particle&> dvx", dp.v(0), p.mass() * p.v(0),
                TOL);
    check_close("Duplicated<const Particle&> dvy", dp.v(1), p.mass() * p.v(1),
                TOL);
    /* By pointer, ReverseWithPrimal: tuple<tuple<>, primal> plus the shadow. */
    Particle dq(1, 0, 0); // += : the mass adjoint starts at 1
    auto r = enzyme::autodiff<enzyme::ReverseWithPrimal>(
        kinetic_ptr, enzyme::Duplicated<const Particle *>(&p, &dq));
    check_close("Duplicated<const Particle*> primal", enzyme::get<1>(r),
                p.energy(), TOL);
    check_close("Duplicated<const Particle*> dm (+=)", dq.mass(),
                1 + 0.5 * (p.v(0) * p.v(0) + p.v(1) * p.v(1)), TOL);
    /* Forward through a reference: the shadow object is the tangent. */
    Particle tp(0.0, 1.0, 0.0);
    auto t = enzyme::autodiff<enzyme::Forward>(
        kinetic, enzyme::Duplicated<const Particle &>(p, tp));
    check_close("Forward Duplicated<const Particle&>", enzyme::get<0>(t),
                p.mass() * p.v(0), TOL);
  }
  /* DuplicatedNoNeed<const std::vector<double>&>, Const<const Config&>. */
  {
    const std::vector<double> x{3, -1.5, 0.25};
    std::vector<double> dx(x.size());
    const Config c{{0.5, 2.0, -1.0}, 3};
    enzyme::autodiff<enzyme::Reverse>(
        wsum, enzyme::DuplicatedNoNeed<const std::vector<double> &>(x, dx),
        enzyme::Const<const Config &>(c));
    for (int i = 0; i < 3; i++) {
      snprintf(what, sizeof what, "DuplicatedNoNeed<const vector&> dx[%d]", i);
      check_close(what, dx[i], c.steps * 2 * c.weights[i] * x[i], TOL);
    }
  }
  /* A struct returned through sret, forward mode, each return activity. */
  {
    double t = 0.9, r = 1.4;
    Vec3 want_p = helix(t, r);
    Vec3 want_d{-r * std::sin(t), r * std::cos(t), 2 * t}; // d/dt
    // Default (Enzyme: Const<Vec3> for a non-float result): the primal.
    auto d0 = enzyme::autodiff<enzyme::Forward>(
        helix, enzyme::Duplicated<double>(t, 1.0), enzyme::Const<double>(r));
    static_assert(std::is_same_v<decltype(d0), enzyme::tuple<Vec3>>, "");
    check_close("helix Forward default: primal z", enzyme::get<0>(d0).z,
                want_p.z, TOL);
    // DuplicatedNoNeed<Vec3>: the tangent.
    auto d1 = enzyme::autodiff<enzyme::Forward, enzyme::DuplicatedNoNeed<Vec3>>(
        helix, enzyme::Duplicated<double>(t, 1.0), enzyme::Const<double>(r));
    static_assert(std::is_same_v<decltype(d1), enzyme::tuple<Vec3>>, "");
    check_close("helix DuplicatedNoNeed: dx", enzyme::get<0>(d1).x, want_d.x,
                TOL);
    check_close("helix DuplicatedNoNeed: dy", enzyme::get<0>(d1).y, want_d.y,
                TOL);
    check_close("helix DuplicatedNoNeed: dz", enzyme::get<0>(d1).z, want_d.z,
                TOL);
    // Duplicated<Vec3>: primal, then tangent.
    auto d2 = enzyme::autodiff<enzyme::Forward, enzyme::Duplicated<Vec3>>(
        helix, enzyme::Duplicated<double>(t, 0.0),
        enzyme::Duplicated<double>(r, 1.0));
    static_assert(std::is_same_v<decltype(d2), enzyme::tuple<Vec3, Vec3>>, "");
    check_close("helix Duplicated: primal x", enzyme::get<0>(d2).x, want_p.x,
                TOL);
    check_close("helix Duplicated: d/dr x", enzyme::get<1>(d2).x, std::cos(t),
                TOL);
    check_close("helix Duplicated: d/dr y", enzyme::get<1>(d2).y, std::sin(t),
                TOL);
    check_close("helix Duplicated: d/dr z", enzyme::get<1>(d2).z, 0.0, TOL);
    // Const<Vec3>: the primal.
    auto d3 = enzyme::autodiff<enzyme::Forward, enzyme::Const<Vec3>>(
        helix, enzyme::Duplicated<double>(t, 1.0), enzyme::Const<double>(r));
    check_close("helix Const: primal y", enzyme::get<0>(d3).y, want_p.y, TOL);
    // ForwardWithPrimal (Tapestry's): tuple<tangent, primal>.
    auto d5 = enzyme::autodiff<enzyme::ForwardWithPrimal>(
        helix, enzyme::Duplicated<double>(t, 1.0), enzyme::Const<double>(r));
    static_assert(std::is_same_v<decltype(d5), enzyme::tuple<Vec3, Vec3>>, "");
    check_close("helix ForwardWithPrimal: dy", enzyme::get<0>(d5).y, want_d.y,
                TOL);
    check_close("helix ForwardWithPrimal: primal y", enzyme::get<1>(d5).y,
                want_p.y, TOL);
    // Forward vs finite differences on the tangent.
    check_close("helix DuplicatedNoNeed vs FD", enzyme::get<0>(d1).y,
                CENTRAL_DIFF(helix(t_, r).y, t, H), TOL);
    // Reverse: a class result is Const (Enzyme's default): not seeded, so
    // the adjoint of t is zero; ReverseWithPrimal returns the struct.
    auto rv = enzyme::autodiff<enzyme::ReverseWithPrimal>(
        helix, enzyme::Active<double>(t), enzyme::Const<double>(r));
    static_assert(std::is_same_v<decltype(rv),
                                 enzyme::tuple<enzyme::tuple<double>, Vec3>>,
                  "");
    check_close("helix ReverseWithPrimal: primal z", enzyme::get<1>(rv).z,
                want_p.z, TOL);
    check_close("helix ReverseWithPrimal: no seed, adjoint 0",
                enzyme::get<0>(enzyme::get<0>(rv)), 0.0, TOL);
    // A two-double struct (returned in registers), DuplicatedNoNeed.
    auto d4 = enzyme::autodiff<enzyme::Forward, enzyme::DuplicatedNoNeed<Pair>>(
        polar, enzyme::Duplicated<double>(t, 1.0), enzyme::Const<double>(r));
    check_close("polar DuplicatedNoNeed: dx", enzyme::get<0>(d4).x,
                CENTRAL_DIFF(polar(t_, r).x, t, H), TOL);
    check_close("polar DuplicatedNoNeed: dy", enzyme::get<0>(d4).y,
                CENTRAL_DIFF(polar(t_, r).y, t, H), TOL);
  }
  /* Forward with an explicit Duplicated<double> result: tuple<primal, tangent>.
   */
  {
    double x = 1.25;
    auto d = enzyme::autodiff<enzyme::Forward, enzyme::Duplicated<double>>(
        Scale{3.0}, enzyme::Duplicated<double>(x, 1.0));
    static_assert(std::is_same_v<decltype(d), enzyme::tuple<double, double>>,
                  "");
    check_close("functor Duplicated<double> primal", enzyme::get<0>(d),
                3.0 * x * x, TOL);
    check_close("functor Duplicated<double> tangent", enzyme::get<1>(d),
                6.0 * x, TOL);
    auto r = enzyme::autodiff<enzyme::Reverse>(Scale{3.0},
                                               enzyme::Active<double>(x));
    check_close("functor reverse", enzyme::get<0>(enzyme::get<0>(r)), 6.0 * x,
                TOL);
  }
  /* The C API through Enzyme's header template, into a struct. */
  {
    auto &&[z1, z2] =
        __enzyme_autodiff<Pair>((void *)mul, enzyme_out, 3.1, enzyme_out, 2.7);
    check_close("__enzyme_autodiff<Pair> d/dx", z1, 2.7, TOL);
    check_close("__enzyme_autodiff<Pair> d/dy", z2, 3.1, TOL);
  }
  /* Enzyme's tuple keeps its elements in order: the C API fills it. */
  {
    auto t = __enzyme_autodiff<enzyme::tuple<double, double>>(
        (void *)mul, enzyme_out, 3.0, enzyme_out, 5.0);
    check_close("__enzyme_autodiff<enzyme::tuple> d/dx", enzyme::get<0>(t), 5.0,
                TOL);
    check_close("__enzyme_autodiff<enzyme::tuple> d/dy", enzyme::get<1>(t), 3.0,
                TOL);
    auto [a, b] = t;
    check_close("structured binding", a - b, 2.0, TOL);
  }
  return check_report();
}
