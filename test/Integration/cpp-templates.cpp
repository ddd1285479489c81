// C++ language constructs (issue 8 items 1 and 6): function templates and
// class templates instantiated with double and float, a class-template object
// passed enzyme_dup and enzyme_const, constexpr and inline functions, and
// static local constant tables (constant-initialised and guarded), in reverse
// and forward mode at -O0..-O3, against analytic derivatives.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>

extern "C" int enzyme_dup, enzyme_const, enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" void __enzyme_autodiff_v(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);
// Typed prototypes so that float arguments are not promoted.
extern "C" float __enzyme_autodiff_f(void *, float);
extern "C" float __enzyme_fwddiff_f(void *, float, float);
extern "C" float __enzyme_autodiff_f2(void *, int, float, int, float);

/* ---- function templates ---- */
template <typename T> T poly(T x) { return T(3) * x * x * x - T(2) * x + std::sin(x); }
template <typename T> T poly_d(T x) { return T(9) * x * x - T(2) + std::cos(x); }

/* ---- class templates ---- */
template <typename T> struct Spring {
  T k, r0;
  T energy(T x) const {
    T d = x - r0;
    return T(0.5) * k * d * d;
  }
};
template <typename T> T spring_energy(T x, T k) {
  Spring<T> s{k, T(1.5)};
  return s.energy(x) + std::exp(-x * x);
}
// d/dx = k (x - 1.5) - 2x exp(-x^2);  d/dk = (x - 1.5)^2 / 2

template <typename T> struct Model {
  T a, b;
  T eval(T x) const { return a * std::exp(b * x); }
};
template <typename T> T model_eval(const Model<T> *m, T x) { return m->eval(x) * x; }

/* ---- constexpr and inline ---- */
constexpr double sq(double x) { return x * x; }
inline double cube(double x) { return x * sq(x); }
constexpr double kScale = sq(3.0); // 9, folded at compile time
static_assert(kScale == 9.0, "constexpr");
double f_constexpr(double x) { return kScale * cube(x) + sq(std::cos(x)); }
double f_constexpr_d(double x) { return 27 * x * x - 2 * std::cos(x) * std::sin(x); }

/* ---- static local constant tables ---- */
double poly_table(double x) {
  static const double c[] = {1.0, -0.5, 0.25, 2.0, -1.0 / 3};
  double s = 0;
  for (int i = 4; i >= 0; --i)
    s = s * x + c[i];
  return s;
}
double poly_table_d(double x) { return -0.5 + 0.5 * x + 6.0 * x * x - 4.0 / 3 * x * x * x; }

template <typename T> T poly_table_t(T x) {
  static constexpr T c[] = {T(0.5), T(1.0), T(-2.0)};
  return c[0] + c[1] * x + c[2] * x * x;
}

double global_k = 2.0;
static double init_w() { return std::sqrt(global_k) + 1.0; }
double guarded_static(double x) {
  static const double w = init_w(); // dynamic initialisation: __cxa_guard
  return w * std::sin(x);
}

int main() {
  const double TOL = 1e-12;
  const float FTOL = 1e-5f;
  double x = 0.7, k = 3.5;
  float xf = 0.7f;

  check_close("template<double> reverse", __enzyme_autodiff((void *)poly<double>, x),
              poly_d(x), TOL);
  check_close("template<double> forward",
              __enzyme_fwddiff((void *)poly<double>, enzyme_dup, x, 1.0), poly_d(x), TOL);
  check_close("template<float> reverse", __enzyme_autodiff_f((void *)poly<float>, xf),
              poly_d(0.7), FTOL);
  check_close("template<float> forward",
              __enzyme_fwddiff_f((void *)poly<float>, xf, 1.0f), poly_d(0.7), FTOL);

  check_close("class template<double> reverse d/dx",
              __enzyme_autodiff((void *)spring_energy<double>, enzyme_out, x,
                                enzyme_const, k),
              k * (x - 1.5) - 2 * x * std::exp(-x * x), TOL);
  check_close("class template<double> reverse d/dk",
              __enzyme_autodiff((void *)spring_energy<double>, enzyme_const, x,
                                enzyme_out, k),
              (x - 1.5) * (x - 1.5) / 2, TOL);
  check_close("class template<double> forward",
              __enzyme_fwddiff((void *)spring_energy<double>, enzyme_dup, x, 1.0,
                               enzyme_dup, k, 2.0),
              k * (x - 1.5) - 2 * x * std::exp(-x * x) + 2.0 * (x - 1.5) * (x - 1.5) / 2,
              TOL);
  check_close("class template<float> reverse d/dk",
              __enzyme_autodiff_f2((void *)spring_energy<float>, enzyme_const, xf,
                                   enzyme_out, 3.5f),
              (0.7 - 1.5) * (0.7 - 1.5) / 2, FTOL);

  {
    Model<double> m{1.3, -0.4}, dm{0, 0};
    double dx = __enzyme_autodiff((void *)model_eval<double>, enzyme_dup, &m, &dm,
                                  enzyme_out, x);
    double e = std::exp(m.b * x);
    check_close("object dup: d/dx", dx, m.a * e * (1 + m.b * x), TOL);
    check_close("object dup: d/da", dm.a, e * x, TOL);
    check_close("object dup: d/db", dm.b, m.a * e * x * x, TOL);
    Model<double> tm{0.0, 1.0};
    check_close("object dup forward d/db",
                __enzyme_fwddiff((void *)model_eval<double>, enzyme_dup, &m, &tm,
                                 enzyme_dup, x, 0.0),
                m.a * e * x * x, TOL);
    check_close("object const: d/dx",
                __enzyme_autodiff((void *)model_eval<double>, enzyme_const, &m, enzyme_out,
                                  x),
                m.a * e * (1 + m.b * x), TOL);
  }

  check_close("constexpr/inline reverse", __enzyme_autodiff((void *)f_constexpr, x),
              f_constexpr_d(x), TOL);
  check_close("constexpr/inline forward",
              __enzyme_fwddiff((void *)f_constexpr, enzyme_dup, x, 1.0), f_constexpr_d(x),
              TOL);
  check_close("static const table reverse", __enzyme_autodiff((void *)poly_table, x),
              poly_table_d(x), TOL);
  check_close("static const table forward",
              __enzyme_fwddiff((void *)poly_table, enzyme_dup, x, 1.0), poly_table_d(x),
              TOL);
  check_close("static constexpr table<float> reverse",
              __enzyme_autodiff_f((void *)poly_table_t<float>, xf), 1.0 - 4.0 * 0.7, FTOL);
  check_close("static constexpr table<double> forward",
              __enzyme_fwddiff((void *)poly_table_t<double>, enzyme_dup, x, 1.0),
              1.0 - 4.0 * x, TOL);
  double w = std::sqrt(2.0) + 1.0;
  check_close("guarded static reverse", __enzyme_autodiff((void *)guarded_static, x),
              w * std::cos(x), TOL);
  check_close("guarded static forward",
              __enzyme_fwddiff((void *)guarded_static, enzyme_dup, x, 1.0),
              w * std::cos(x), TOL);
  return check_report();
}
