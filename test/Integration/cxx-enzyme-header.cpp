// Enzyme's C++ spellings through <enzyme/enzyme>: enzyme::autodiff with
// Reverse, ReverseWithPrimal, Forward (default, Duplicated, DuplicatedNoNeed
// and Const return activities), Tapestry's ForwardWithPrimal, and the
// Active / Duplicated / DuplicatedNoNeed / Const wrappers (CTAD, explicit
// reference and pointer types), in float and double; results read through
// enzyme::get and structured bindings. Expected values are
// analytic derivatives.
//
// Functions are given as lambdas, functors, or tapestry::fn<f> here; plain
// functions passed by name are in cxx-enzyme-plain-function.cpp.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx -std=c++20 -O2 %s -o %t4 && %t4 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <enzyme/enzyme>
#include <tapestry/tapestry.hpp>

#include <cmath>

static const double TOL = 1e-12;
static const float FTOL = 1e-5f;

/* ---- functions (float and double, by value, reference and pointer) ---- */
float f(float x) { return x * x; }
float g(const float &x) { return x * x; }
float h(const float *x) { return *x * *x; }
float f2(float x, float y) { return x * y; }
float h2(float x, float &y) { return x * (y++); } // writes a Const argument

double rosen(double x, double y) {
  return (1 - x) * (1 - x) + 100 * (y - x * x) * (y - x * x);
}
double rosen_dx(double x, double y) { return -2 * (1 - x) - 400 * x * (y - x * x); }
double rosen_dy(double x, double y) { return 200 * (y - x * x); }

// sum_i w_i * sin(v_i) * a, v and w arrays of n
double weighted(const double *v, const double *w, int n, double a) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += w[i] * std::sin(v[i]) * a;
  return s;
}

// out[i] = a * in[i]^2 (no return value)
void square_into(double *out, const double *in, int n, double a) {
  for (int i = 0; i < n; i++)
    out[i] = a * in[i] * in[i];
}

struct Scaled {
  double k;
  double operator()(double x, double y) const { return k * std::exp(x) * y; }
};

int main() {
  const float x = 10, y = 5;
  char what[128];

  /* Reverse, Active: tuple<tuple<adjoint>> */
  {
    float d = enzyme::get<0>(enzyme::get<0>(
        enzyme::autodiff<enzyme::Reverse>(tapestry::fn<f>, enzyme::Active{x})));
    check_close("reverse Active float", d, 2 * x, FTOL);
  }
  /* Reverse, Duplicated through a reference and a pointer */
  {
    float dx = 0;
    enzyme::autodiff<enzyme::Reverse>(tapestry::fn<g>,
                                      enzyme::Duplicated<const float &>{x, dx});
    check_close("reverse Duplicated<const float&>", dx, 2 * x, FTOL);
    float dx2 = 1; // incremented, not overwritten
    enzyme::autodiff<enzyme::Reverse>(tapestry::fn<h>,
                                      enzyme::Duplicated<const float *>{&x, &dx2});
    check_close("reverse Duplicated<const float*> (+=)", dx2, 1 + 2 * x, FTOL);
  }
  /* Reverse with Const: by value, const reference, non-const reference */
  {
    auto r = enzyme::autodiff<enzyme::Reverse>(tapestry::fn<f2>, enzyme::Active{x},
                                               enzyme::Const<float>{y});
    check_close("reverse Const<float>", enzyme::get<0>(enzyme::get<0>(r)), y, FTOL);
    float y2 = y;
    auto r2 = enzyme::autodiff<enzyme::Reverse>(tapestry::fn<h2>, enzyme::Active{x},
                                                enzyme::Const<float &>{y2});
    check_close("reverse Const<float&>", enzyme::get<0>(enzyme::get<0>(r2)), y, FTOL);
    check_close("reverse Const<float&> primal side effect", y2, y + 1, FTOL);
  }
  /* Reverse, two Active doubles; structured bindings */
  {
    double a = -1.2, b = 1.7;
    auto r = enzyme::autodiff<enzyme::Reverse>(tapestry::fn<rosen>, enzyme::Active(a),
                                               enzyme::Active(b));
    auto [da, db] = enzyme::get<0>(r);
    check_close("reverse rosen d/dx", da, rosen_dx(a, b), TOL);
    check_close("reverse rosen d/dy", db, rosen_dy(a, b), TOL);
    static_assert(std::tuple_size_v<decltype(r)> == 1, "tuple<tuple<...>>");
    static_assert(enzyme::tuple_size_v<std::tuple_element_t<0, decltype(r)>> == 2, "");
  }
  /* ReverseWithPrimal: tuple<tuple<adjoints...>, primal> */
  {
    double a = 0.3, b = -0.4;
    auto r = enzyme::autodiff<enzyme::ReverseWithPrimal>(
        tapestry::fn<rosen>, enzyme::Active(a), enzyme::Active(b));
    check_close("reverse-with-primal primal", enzyme::get<1>(r), rosen(a, b), TOL);
    check_close("reverse-with-primal d/dx", enzyme::get<0>(enzyme::get<0>(r)),
                rosen_dx(a, b), TOL);
    check_close("reverse-with-primal d/dy", enzyme::get<1>(enzyme::get<0>(r)),
                rosen_dy(a, b), TOL);
    auto rf = enzyme::autodiff<enzyme::ReverseWithPrimal>(tapestry::fn<f>,
                                                          enzyme::Active(3.0f));
    check_close("reverse-with-primal float primal", enzyme::get<1>(rf), 9.0f, FTOL);
    check_close("reverse-with-primal float d", enzyme::get<0>(enzyme::get<0>(rf)), 6.0f,
                FTOL);
  }
  /* Reverse over arrays: Duplicated, DuplicatedNoNeed, Const pointer/int,
   * Active scalar, all in one request */
  {
    double v[4] = {0.1, 0.7, -1.3, 2.2}, w[4] = {1.5, -0.5, 0.25, 2.0};
    double dv[4] = {0, 0, 0, 0}, dw[4] = {0, 0, 0, 0};
    double a = 1.3;
    auto r = enzyme::autodiff<enzyme::Reverse>(
        tapestry::fn<weighted>, enzyme::Duplicated<const double *>(v, dv),
        enzyme::DuplicatedNoNeed<const double *>(w, dw), enzyme::Const(4),
        enzyme::Active(a));
    double da = 0;
    for (int i = 0; i < 4; i++) {
      snprintf(what, sizeof what, "reverse weighted dv[%d]", i);
      check_close(what, dv[i], w[i] * std::cos(v[i]) * a, TOL);
      snprintf(what, sizeof what, "reverse weighted dw[%d]", i);
      check_close(what, dw[i], std::sin(v[i]) * a, TOL);
      da += w[i] * std::sin(v[i]);
    }
    check_close("reverse weighted da", enzyme::get<0>(enzyme::get<0>(r)), da, TOL);
    double dv2[4] = {0, 0, 0, 0};
    enzyme::autodiff<enzyme::Reverse>(tapestry::fn<weighted>,
                                      enzyme::Duplicated<const double *>(v, dv2),
                                      enzyme::Const<const double *>(w), enzyme::Const(4),
                                      enzyme::Const(a));
    check_close("reverse weighted, Const a: dv[2]", dv2[2], w[2] * std::cos(v[2]) * a,
                TOL);
  }
  /* Reverse of a void function: the output's shadow holds the seed */
  {
    double in[3] = {1.0, -2.0, 0.5}, din[3] = {0, 0, 0};
    double out[3], dout[3] = {1.0, 0.5, 2.0};
    double a = 3.0;
    auto r = enzyme::autodiff<enzyme::Reverse>(
        tapestry::fn<square_into>, enzyme::Duplicated<double *>(out, dout),
        enzyme::Duplicated<const double *>(in, din), enzyme::Const(3), enzyme::Active(a));
    const double seed[3] = {1.0, 0.5, 2.0};
    double da = 0;
    for (int i = 0; i < 3; i++) {
      snprintf(what, sizeof what, "reverse void din[%d]", i);
      check_close(what, din[i], seed[i] * 2 * a * in[i], TOL);
      da += seed[i] * in[i] * in[i];
    }
    check_close("reverse void da", enzyme::get<0>(enzyme::get<0>(r)), da, TOL);
    check_close("reverse void primal out[1]", out[1], a * 4.0, TOL);
  }
  /* Reverse, Const<double> return activity: the result is not seeded, only
   * the output shadow contributes */
  {
    double a = 0.3, b = 0.9;
    auto r = enzyme::autodiff<enzyme::Reverse, enzyme::Const<double>>(
        tapestry::fn<rosen>, enzyme::Active(a), enzyme::Active(b));
    check_close("reverse Const return d/dx", enzyme::get<0>(enzyme::get<0>(r)), 0.0, TOL);
    check_close("reverse Const return d/dy", enzyme::get<1>(enzyme::get<0>(r)), 0.0, TOL);
  }

  /* Forward, by value: tuple<tangent> */
  {
    float t = enzyme::get<0>(
        enzyme::autodiff<enzyme::Forward>(tapestry::fn<f>, enzyme::Duplicated<float>{x, 1.0f}));
    check_close("forward Duplicated<float>", t, 2 * x, FTOL);
    double a = 0.25, b = -0.75;
    double td = enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(
        tapestry::fn<rosen>, enzyme::Duplicated(a, 1.0), enzyme::Const(b)));
    check_close("forward rosen d/dx", td, rosen_dx(a, b), TOL);
    double tdir = enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(
        tapestry::fn<rosen>, enzyme::Duplicated(a, 0.5), enzyme::Duplicated(b, -2.0)));
    check_close("forward rosen direction", tdir,
                0.5 * rosen_dx(a, b) - 2.0 * rosen_dy(a, b), TOL);
  }
  /* Forward through a reference and a pointer */
  {
    const float dx = 1.0f;
    float t = enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(
        tapestry::fn<g>, enzyme::Duplicated<const float &>{x, dx}));
    check_close("forward Duplicated<const float&>", t, 2 * x, FTOL);
    float t2 = enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(
        tapestry::fn<h>, enzyme::Duplicated<const float *>{&x, &dx}));
    check_close("forward Duplicated<const float*>", t2, 2 * x, FTOL);
    double v[4] = {0.1, 0.7, -1.3, 2.2}, w[4] = {1.5, -0.5, 0.25, 2.0};
    double tv[4] = {1, 0, 0, 1};
    double tw = enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(
        tapestry::fn<weighted>, enzyme::Duplicated<const double *>(v, tv),
        enzyme::Const<const double *>(w), enzyme::Const(4), enzyme::Const(2.0)));
    check_close("forward weighted", tw,
                2.0 * (w[0] * std::cos(v[0]) + w[3] * std::cos(v[3])), TOL);
  }
  /* Forward return activities */
  {
    double a = 0.4, b = 0.2;
    auto pd = enzyme::autodiff<enzyme::Forward, enzyme::Duplicated<double>>(
        tapestry::fn<rosen>, enzyme::Duplicated(a, 1.0), enzyme::Const(b));
    check_close("forward Duplicated return: primal", enzyme::get<0>(pd), rosen(a, b), TOL);
    check_close("forward Duplicated return: tangent", enzyme::get<1>(pd), rosen_dx(a, b),
                TOL);
    auto nn = enzyme::autodiff<enzyme::Forward, enzyme::DuplicatedNoNeed<double>>(
        tapestry::fn<rosen>, enzyme::Duplicated(a, 0.0), enzyme::Duplicated(b, 1.0));
    static_assert(std::tuple_size_v<decltype(nn)> == 1, "tangent only");
    check_close("forward DuplicatedNoNeed return", enzyme::get<0>(nn), rosen_dy(a, b), TOL);
    auto c = enzyme::autodiff<enzyme::Forward, enzyme::Const<double>>(
        tapestry::fn<rosen>, enzyme::Duplicated(a, 1.0), enzyme::Const(b));
    static_assert(std::tuple_size_v<decltype(c)> == 1, "primal only");
    check_close("forward Const return: primal", enzyme::get<0>(c), rosen(a, b), TOL);
  }
  /* ForwardWithPrimal (Tapestry): tuple<tangent, primal> */
  {
    auto [t, p] = enzyme::autodiff<enzyme::ForwardWithPrimal>(
        tapestry::fn<f>, enzyme::Duplicated(3.0f, 1.0f));
    check_close("forward-with-primal tangent", t, 6.0f, FTOL);
    check_close("forward-with-primal primal", p, 9.0f, FTOL);
  }

  /* Lambdas and functors as the function (the object is constant) */
  {
    auto cube = [](double u) { return u * u * u; };
    double d = enzyme::get<0>(
        enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(cube, enzyme::Active(1.5))));
    check_close("reverse lambda", d, 3 * 1.5 * 1.5, TOL);
    double k = 2.5;
    auto scaled = [&k](double u, const double *p) { return k * u * p[0] * p[1]; };
    double p[2] = {3.0, -1.0}, dp[2] = {0, 0};
    auto r = enzyme::autodiff<enzyme::Reverse>(scaled, enzyme::Active(2.0),
                                               enzyme::Duplicated<const double *>(p, dp));
    check_close("reverse capturing lambda du", enzyme::get<0>(enzyme::get<0>(r)),
                k * p[0] * p[1], TOL);
    check_close("reverse capturing lambda dp[0]", dp[0], k * 2.0 * p[1], TOL);
    check_close("reverse capturing lambda dp[1]", dp[1], k * 2.0 * p[0], TOL);
    double t = enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(
        [](float u) { return std::sin(u) * u; }, enzyme::Duplicated(0.5f, 1.0f)));
    check_close("forward temporary lambda", t, std::cos(0.5) * 0.5 + std::sin(0.5), FTOL);
    Scaled s{0.75};
    auto rs = enzyme::autodiff<enzyme::ReverseWithPrimal>(s, enzyme::Active(0.2),
                                                          enzyme::Active(3.0));
    check_close("reverse functor d/dx", enzyme::get<0>(enzyme::get<0>(rs)),
                0.75 * std::exp(0.2) * 3.0, TOL);
    check_close("reverse functor d/dy", enzyme::get<1>(enzyme::get<0>(rs)),
                0.75 * std::exp(0.2), TOL);
    check_close("reverse functor primal", enzyme::get<1>(rs), s(0.2, 3.0), TOL);
  }

  /* Wrappers convert to their value, as Enzyme's do */
  {
    enzyme::Active<double> act(2.0);
    enzyme::Const<int> cn(3);
    double &av = act;
    int &cv = cn;
    check_close("Active converts to T&", av, 2.0, 0);
    check_close("Const converts to T&", cv, 3.0, 0);
  }
  return check_report();
}
