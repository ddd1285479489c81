// Tapestry's typed C++ API (<tapestry/tapestry.hpp>) on idiomatic C++:
// tapestry::gradient / value_and_gradient (std::array for one argument type,
// std::tuple for mixed types), tapestry::autodiff with Reverse,
// ReverseWithPrimal, Forward and ForwardWithPrimal, the function given as a
// template argument, as tapestry::fn<f>, by name or address as a value, as
// a lambda object or a functor;
// a function template and a class template instantiated with double and
// float; a captureless lambda converted to a function pointer; a member
// function (directly, &S::m, and through a free wrapper); references
// (const double& inputs, double& outputs); long double; a std::vector
// passed by const reference. Expected values are analytic derivatives.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx -std=c++20 -O0 %s -o %t4 && %t4 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <tapestry/tapestry.hpp>

#include <cmath>
#include <type_traits>
#include <vector>

static const double TOL = 1e-12;
static const double FTOL = 1e-5;

/* ---- a function template, instantiated with double and float ---- */
template <typename T> T poly(T x, T y) { return x * x * y + T(3) * std::sin(x * y); }
template <typename T> T poly_dx(T x, T y) { return 2 * x * y + 3 * y * std::cos(x * y); }
template <typename T> T poly_dy(T x, T y) { return x * x + 3 * x * std::cos(x * y); }

/* ---- a class template with a member function ---- */
template <typename T> struct Quadratic {
  T a, b, c;
  T eval(T x) const { return a * x * x + b * x + c; }
};
// The member function through a free wrapper (the object passed by pointer).
template <typename T> T quad_eval(const Quadratic<T> *q, T x) { return q->eval(x); }

/* ---- references: a const input and an output ---- */
void polar(const double &r, const double &theta, double &x, double &y) {
  x = r * std::cos(theta);
  y = r * std::sin(theta);
}

/* ---- mixed float / double parameters ---- */
double mixed(float a, double b) { return std::exp(double(a)) * b * b; }

/* ---- pointers and integers ---- */
double norm2(const double *v, int n, double scale) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += v[i] * v[i];
  return scale * std::sqrt(s);
}

long double cubic(long double x) { return x * x * x - 2 * x; }

double vec_energy(const std::vector<double> &v, double k) {
  double e = 0;
  for (size_t i = 0; i + 1 < v.size(); i++)
    e += k * (v[i + 1] - v[i]) * (v[i + 1] - v[i]);
  return e;
}

/* ---- a captureless lambda as a constant function pointer ---- */
constexpr auto logistic = [](double x) { return 1.0 / (1.0 + std::exp(-x)); };

struct Spring {
  double k;
  double operator()(double x, double v) const { return 0.5 * k * x * x + 0.5 * v * v; }
};

int main() {
  char what[128];

  /* gradient: std::array of partials, the function as a template argument */
  {
    double x = 0.7, y = -1.1;
    std::array<double, 2> g = tapestry::gradient<poly<double>>(x, y);
    check_close("gradient poly<double> dx", g[0], poly_dx(x, y), TOL);
    check_close("gradient poly<double> dy", g[1], poly_dy(x, y), TOL);
    float xf = 0.7f, yf = -1.1f;
    auto gf = tapestry::gradient<poly<float>>(xf, yf);
    static_assert(std::is_same_v<decltype(gf), std::array<float, 2>>, "float array");
    check_close("gradient poly<float> dx", gf[0], poly_dx(xf, yf), FTOL);
    check_close("gradient poly<float> dy", gf[1], poly_dy(xf, yf), FTOL);
    // The same through tapestry::fn<f> as a value.
    auto g2 = tapestry::gradient(tapestry::fn<poly<double>>, x, y);
    check_close("gradient fn<poly<double>> dx", g2[0], poly_dx(x, y), TOL);
    // A plain function passed by name, and its address, as values.
    auto g5 = tapestry::gradient(poly<double>, x, y);
    check_close("gradient poly<double> by name dy", g5[1], poly_dy(x, y), TOL);
    auto [d6x, d6y] = tapestry::autodiff<tapestry::Reverse>(
        &poly<double>, tapestry::Active(x), tapestry::Active(y));
    check_close("autodiff &poly<double> dx", d6x, poly_dx(x, y), TOL);
    check_close("autodiff &poly<double> dy", d6y, poly_dy(x, y), TOL);
    double t7 = tapestry::autodiff<tapestry::Forward>(
        &poly<double>, tapestry::Duplicated(x, 1.0), tapestry::Duplicated(y, 0.0));
    check_close("forward &poly<double>", t7, poly_dx(x, y), TOL);
  }
  /* gradient with mixed argument types: std::tuple */
  {
    auto [da, db] = tapestry::gradient<mixed>(0.5f, 2.0);
    static_assert(std::is_same_v<decltype(da), float>, "float partial");
    check_close("gradient mixed d/da", da, std::exp(0.5) * 4.0, FTOL);
    check_close("gradient mixed d/db", db, std::exp(0.5) * 4.0, TOL);
  }
  /* value_and_gradient */
  {
    auto [v, g] = tapestry::value_and_gradient<poly<double>>(1.3, 0.4);
    check_close("value_and_gradient value", v, poly(1.3, 0.4), TOL);
    check_close("value_and_gradient dx", g[0], poly_dx(1.3, 0.4), TOL);
    check_close("value_and_gradient dy", g[1], poly_dy(1.3, 0.4), TOL);
  }
  /* a captureless lambda converted to a function pointer */
  {
    double x = 0.3, s = logistic(x);
    auto g = tapestry::gradient<+logistic>(x);
    check_close("gradient +lambda", g[0], s * (1 - s), TOL);
    auto g2 = tapestry::gradient(logistic, x); // the lambda object itself
    check_close("gradient lambda object", g2[0], s * (1 - s), TOL);
    double c = 4.0;
    auto g3 = tapestry::gradient([c](double u) { return c * u * u; }, x);
    check_close("gradient capturing lambda", g3[0], 2 * c * x, TOL);
    auto g4 = tapestry::gradient(Spring{3.0}, 0.5, -2.0);
    check_close("gradient functor dx", g4[0], 1.5, TOL);
    check_close("gradient functor dv", g4[1], -2.0, TOL);
  }
  /* autodiff, Reverse: Active, Duplicated pointer, Const int */
  {
    double v[3] = {3.0, -4.0, 12.0}, dv[3] = {0, 0, 0};
    auto [ds] = tapestry::autodiff<tapestry::Reverse, norm2>(
        tapestry::Duplicated(v, dv), tapestry::Const(3), tapestry::Active(2.0));
    check_close("reverse norm2 d/dscale", ds, 13.0, TOL);
    for (int i = 0; i < 3; i++) {
      snprintf(what, sizeof what, "reverse norm2 dv[%d]", i);
      check_close(what, dv[i], 2.0 * v[i] / 13.0, TOL);
    }
    auto [f, ds2] = tapestry::autodiff<tapestry::ReverseWithPrimal, norm2>(
        tapestry::Const<const double *>(v), tapestry::Const(3), tapestry::Active(2.0));
    check_close("reverse-with-primal norm2 value", f, 26.0, TOL);
    check_close("reverse-with-primal norm2 d/dscale", ds2, 13.0, TOL);
  }
  /* autodiff, Forward and ForwardWithPrimal */
  {
    double x = 0.9, y = 0.2;
    double t = tapestry::autodiff<tapestry::Forward, poly<double>>(
        tapestry::Duplicated(x, 1.0), tapestry::Duplicated(y, 2.0));
    check_close("forward poly direction", t, poly_dx(x, y) + 2 * poly_dy(x, y), TOL);
    auto [p, tf] = tapestry::autodiff<tapestry::ForwardWithPrimal, poly<float>>(
        tapestry::Duplicated(0.9f, 0.0f), tapestry::Duplicated(0.2f, 1.0f));
    check_close("forward-with-primal poly<float> value", p, poly(0.9f, 0.2f), FTOL);
    check_close("forward-with-primal poly<float> tangent", tf, poly_dy(0.9f, 0.2f), FTOL);
    double v[3] = {3.0, -4.0, 12.0}, tv[3] = {1.0, 1.0, 0.0};
    double tn = tapestry::autodiff<tapestry::Forward>(
        tapestry::fn<norm2>, tapestry::Duplicated(v, tv), tapestry::Const(3),
        tapestry::Const(1.0));
    check_close("forward norm2 pointer tangent", tn, (3.0 - 4.0) / 13.0, TOL);
  }
  /* references: const double& inputs, double& outputs */
  {
    double r = 2.0, th = 0.6, dr = 0, dth = 0;
    double x, y, dx = 1.0, dy = 0.5; // seeds of the outputs
    tapestry::autodiff<tapestry::Reverse, polar>(
        tapestry::Duplicated<const double &>(r, dr),
        tapestry::Duplicated<const double &>(th, dth), tapestry::Duplicated<double &>(x, dx),
        tapestry::Duplicated<double &>(y, dy));
    check_close("reverse polar primal x", x, r * std::cos(th), TOL);
    check_close("reverse polar dr", dr, std::cos(th) + 0.5 * std::sin(th), TOL);
    check_close("reverse polar dtheta", dth,
                -r * std::sin(th) + 0.5 * r * std::cos(th), TOL);
    // Forward: the tangents of the outputs are written through the references.
    double tr = 0.0, tth = 1.0, tx = 0, ty = 0;
    tapestry::autodiff<tapestry::Forward, polar>(
        tapestry::Duplicated<const double &>(r, tr),
        tapestry::Duplicated<const double &>(th, tth), tapestry::Duplicated<double &>(x, tx),
        tapestry::Duplicated<double &>(y, ty));
    check_close("forward polar dx/dtheta", tx, -r * std::sin(th), TOL);
    check_close("forward polar dy/dtheta", ty, r * std::cos(th), TOL);
    // A pointer for a reference parameter, and Const for a const reference.
    double dr2 = 0, xo, yo, dxo = 0, dyo = 1.0;
    tapestry::autodiff<tapestry::Reverse, polar>(
        tapestry::Duplicated(&r, &dr2), tapestry::Const(th),
        tapestry::Duplicated(&xo, &dxo), tapestry::Duplicated(&yo, &dyo));
    check_close("reverse polar pointers dr", dr2, std::sin(th), TOL);
  }
  /* member functions: &S::m with the object first, and a free wrapper */
  {
    Quadratic<double> q{1.5, -2.0, 0.25}, dq{0, 0, 0};
    auto [dx] = tapestry::autodiff<tapestry::Reverse, &Quadratic<double>::eval>(
        tapestry::Duplicated(&q, &dq), tapestry::Active(3.0));
    check_close("member dx", dx, 2 * 1.5 * 3.0 - 2.0, TOL);
    check_close("member da", dq.a, 9.0, TOL);
    check_close("member db", dq.b, 3.0, TOL);
    check_close("member dc", dq.c, 1.0, TOL);
    Quadratic<float> qf{1.5f, -2.0f, 0.25f}, dqf{0, 0, 0};
    auto [dxf] = tapestry::autodiff<tapestry::Reverse, quad_eval<float>>(
        tapestry::Duplicated<const Quadratic<float> *>(&qf, &dqf), tapestry::Active(3.0f));
    check_close("free wrapper<float> dx", dxf, 7.0, FTOL);
    check_close("free wrapper<float> da", dqf.a, 9.0, FTOL);
    double t = tapestry::autodiff<tapestry::Forward, &Quadratic<double>::eval>(
        tapestry::Const(&q), tapestry::Duplicated(3.0, 1.0));
    check_close("member forward", t, 7.0, TOL);
    auto g = tapestry::gradient(
        [&q](double x) { return q.eval(x) * x; }, 2.0); // a lambda calling it
    check_close("lambda over member", g[0], q.eval(2.0) + 2.0 * (2 * 1.5 * 2.0 - 2.0), TOL);
  }
  /* long double */
  {
    auto g = tapestry::gradient<cubic>(1.5L);
    check_close("gradient long double", (double)g[0], 3 * 1.5 * 1.5 - 2, TOL);
  }
  /* std::vector by const reference, Duplicated with a shadow vector */
  {
    std::vector<double> v{0.5, 1.5, -1.0, 2.0}, dv(v.size(), 0.0);
    auto [dk] = tapestry::autodiff<tapestry::Reverse, vec_energy>(
        tapestry::Duplicated<const std::vector<double> &>(v, dv), tapestry::Active(2.0));
    double e = 0;
    for (size_t i = 0; i + 1 < v.size(); i++)
      e += (v[i + 1] - v[i]) * (v[i + 1] - v[i]);
    check_close("vector dk", dk, e, TOL);
    for (size_t i = 0; i < v.size(); i++) {
      double want = 0;
      if (i > 0)
        want += 2 * 2.0 * (v[i] - v[i - 1]);
      if (i + 1 < v.size())
        want -= 2 * 2.0 * (v[i + 1] - v[i]);
      snprintf(what, sizeof what, "vector dv[%zu]", i);
      check_close(what, dv[i], want, TOL);
    }
  }
  return check_report();
}
