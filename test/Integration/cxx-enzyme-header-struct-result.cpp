// Reverse mode through <enzyme/enzyme> on functions that return a struct of
// doubles, with Enzyme's rules: RetActivity enzyme::Active<S> seeds every
// member of the result with 1 (so the adjoints are those of the sum of the
// members), the default for a class result is Const<S> (no seed: adjoints
// 0), ReverseWithPrimal returns the struct as the primal, and Active struct
// arguments come back as that struct in the result tuple. Structs returned
// in registers (two doubles, a nested array and struct of four floats,
// std::complex<double>) and in memory (three doubles, a nested aggregate
// of five, std::array<double, 3>) are covered; a
// function calling one is differentiated through it. Expected values are
// analytic derivatives or central finite differences of the member sum.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

#include <enzyme/enzyme>

#include <array>
#include <cmath>
#include <complex>
#include <type_traits>

struct V2 {
  double x, y;
};
struct V3 {
  double x, y, z;
};
struct F4 {
  float a[2];
  struct {
    float u, v;
  } b;
};
struct Big {
  double a[2];
  V3 v;
};

// Returned in registers ({double, double}).
V2 polar(double t, double r) { return {r * std::cos(t), r * std::sin(t)}; }
// A struct argument and a struct result.
V2 shear(V2 v, double s) { return {v.x + s * v.y, s * v.y * v.y}; }
// Returned in registers as two <2 x float>.
F4 powers(float t) { return {{t, t * t}, {2 * t, t * t * t}}; }
// Returned in memory (sret).
V3 helix(double t, double r) {
  return {r * std::cos(t), r * std::sin(t), t * t};
}
Big big(double t) {
  return {{std::exp(t), t * t}, {std::sin(t), 3 * t, 1 / t}};
}
// Standard library aggregates: std::array returned in memory (seeded
// through brace elision) and std::complex in registers.
std::array<double, 3> trio(double t) { return {t, t * t, std::sin(t)}; }
std::complex<double> cplx(double t) { return {t * t, std::exp(t)}; }
// Calls a function returning a struct.
double area(double t, double r) {
  V2 p = polar(t, r);
  return p.x * p.y;
}

static double sum(V2 v) { return v.x + v.y; }
static double sum(V3 v) { return v.x + v.y + v.z; }
static double sum(Big b) { return b.a[0] + b.a[1] + sum(b.v); }
static double sum(F4 f) { return (double)f.a[0] + f.a[1] + f.b.u + f.b.v; }

static const double H = 1e-6, TOL = 1e-6;

int main() {
  double t = 0.7, r = 1.3;
  /* Active<V2> result: the gradient of x + y. */
  {
    auto g = enzyme::autodiff<enzyme::Reverse, enzyme::Active<V2>>(
        polar, enzyme::Active(t), enzyme::Active(r));
    static_assert(std::is_same_v<decltype(g),
                                 enzyme::tuple<enzyme::tuple<double, double>>>,
                  "Reverse: tuple<tuple<adjoints>>");
    auto [dt, dr] = enzyme::get<0>(g);
    check_close("polar Active<V2> d/dt", dt, -r * std::sin(t) + r * std::cos(t),
                TOL);
    check_close("polar Active<V2> d/dr", dr, std::cos(t) + std::sin(t), TOL);
    check_close("polar Active<V2> d/dt vs FD", dt,
                CENTRAL_DIFF(sum(polar(t_, r)), t, H), TOL);
  }
  /* The default for a class result is Const<V2>: nothing is seeded. */
  {
    auto g = enzyme::autodiff<enzyme::Reverse>(polar, enzyme::Active(t),
                                               enzyme::Active(r));
    check_close("polar default Const: d/dt", enzyme::get<0>(enzyme::get<0>(g)),
                0.0, TOL);
    auto c = enzyme::autodiff<enzyme::Reverse, enzyme::Const<V2>>(
        polar, enzyme::Active(t), enzyme::Active(r));
    check_close("polar Const<V2>: d/dr", enzyme::get<1>(enzyme::get<0>(c)),
                0.0, TOL);
  }
  /* ReverseWithPrimal, an Active<V2> argument and an Active<V2> result. */
  {
    V2 v{2.0, 3.0};
    double s = 0.5;
    auto g = enzyme::autodiff<enzyme::ReverseWithPrimal, enzyme::Active<V2>>(
        shear, enzyme::Active(v), enzyme::Active(s));
    static_assert(
        std::is_same_v<decltype(g),
                       enzyme::tuple<enzyme::tuple<V2, double>, V2>>,
        "ReverseWithPrimal: tuple<tuple<adjoints>, primal>");
    V2 dv = enzyme::get<0>(enzyme::get<0>(g));
    double ds = enzyme::get<1>(enzyme::get<0>(g));
    V2 p = enzyme::get<1>(g);
    // sum = x + s y + s y^2
    check_close("shear d/dv.x", dv.x, 1.0, TOL);
    check_close("shear d/dv.y", dv.y, s + 2 * s * v.y, TOL);
    check_close("shear d/ds", ds, v.y + v.y * v.y, TOL);
    check_close("shear primal x", p.x, v.x + s * v.y, TOL);
    check_close("shear primal y", p.y, s * v.y * v.y, TOL);
  }
  /* Floats: four members in two vector registers. */
  {
    float ft = 1.5f;
    auto g = enzyme::autodiff<enzyme::Reverse, enzyme::Active<F4>>(
        powers, enzyme::Active(ft));
    float d = enzyme::get<0>(enzyme::get<0>(g));
    check_close("powers Active<F4> d/dt", d, 1 + 2 * ft + 2 + 3 * ft * ft,
                1e-5);
  }
  /* Returned in memory: the seed is a struct of ones. */
  {
    auto g = enzyme::autodiff<enzyme::Reverse, enzyme::Active<V3>>(
        helix, enzyme::Active(t), enzyme::Active(r));
    auto [dt, dr] = enzyme::get<0>(g);
    check_close("helix Active<V3> d/dt", dt,
                -r * std::sin(t) + r * std::cos(t) + 2 * t, TOL);
    check_close("helix Active<V3> d/dr", dr, std::cos(t) + std::sin(t), TOL);
    auto w = enzyme::autodiff<enzyme::ReverseWithPrimal, enzyme::Active<V3>>(
        helix, enzyme::Active(t), enzyme::Const(r));
    check_close("helix RWP d/dt", enzyme::get<0>(enzyme::get<0>(w)), dt, TOL);
    check_close("helix RWP primal z", enzyme::get<1>(w).z, t * t, TOL);
    auto b = enzyme::autodiff<enzyme::Reverse, enzyme::Active<Big>>(
        big, enzyme::Active(t));
    check_close("big Active<Big> d/dt", enzyme::get<0>(enzyme::get<0>(b)),
                CENTRAL_DIFF(sum(big(t_)), t, H), TOL);
    check_close("big Active<Big> d/dt analytic",
                enzyme::get<0>(enzyme::get<0>(b)),
                std::exp(t) + 2 * t + std::cos(t) + 3 - 1 / (t * t), TOL);
  }
  /* std::array and std::complex results. */
  {
    auto a = enzyme::autodiff<enzyme::Reverse,
                              enzyme::Active<std::array<double, 3>>>(
        trio, enzyme::Active(t));
    check_close("std::array<double, 3> d/dt", enzyme::get<0>(enzyme::get<0>(a)),
                1 + 2 * t + std::cos(t), TOL);
    auto c = enzyme::autodiff<enzyme::Reverse,
                              enzyme::Active<std::complex<double>>>(
        cplx, enzyme::Active(t));
    check_close("std::complex<double> d/dt", enzyme::get<0>(enzyme::get<0>(c)),
                2 * t + std::exp(t), TOL);
  }
  /* A function that calls one returning a struct. */
  {
    auto g = enzyme::autodiff<enzyme::Reverse>(area, enzyme::Active(t),
                                               enzyme::Active(r));
    check_close("area d/dt", enzyme::get<0>(enzyme::get<0>(g)),
                r * r * std::cos(2 * t), TOL);
    check_close("area d/dr", enzyme::get<1>(enzyme::get<0>(g)),
                r * std::sin(2 * t), TOL);
  }
  /* Forward agrees with reverse on the member sum. */
  {
    auto f = enzyme::autodiff<enzyme::Forward, enzyme::DuplicatedNoNeed<V2>>(
        polar, enzyme::Duplicated<double>(t, 1.0),
        enzyme::Duplicated<double>(r, 0.0));
    auto g = enzyme::autodiff<enzyme::Reverse, enzyme::Active<V2>>(
        polar, enzyme::Active(t), enzyme::Active(r));
    check_close("polar forward vs reverse", sum(enzyme::get<0>(f)),
                enzyme::get<0>(enzyme::get<0>(g)), TOL);
  }
  return check_report();
}
