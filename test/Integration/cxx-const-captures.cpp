// Constant data reached through a struct of pointers beside active data:
// a lambda capturing by reference an active and an enzyme::Const array,
// passed to a templated quadrature helper, and an expression template
// whose operands hold references to an active vector and a Const one. At
// -O0 every function is noinline; a call given a local struct of pointers
// is inlined so that the constant pointer is known as such. Expected values
// are analytic.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -g -O0 %s -o %t0g && %t0g | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <enzyme/enzyme>

#include <cmath>
#include <cstddef>

template <class F> double trapezoid(F f, double a, double b, int n) {
  double h = (b - a) / n, s = 0.5 * (f(a) + f(b));
  for (int i = 1; i < n; ++i)
    s += f(a + i * h);
  return s * h;
}

double loss(const double *theta, const double *data) {
  return trapezoid(
      [&](double t) { return theta[0] * std::sin(data[0] * t) + theta[1] * t * data[1]; },
      0.0, 1.0, 100);
}

struct Vec3 {
  double d[3];
  double operator[](size_t i) const { return d[i]; }
};
template <class A, class B> struct Diff {
  const A &a;
  const B &b;
  double operator[](size_t i) const { return a[i] - b[i]; }
};
template <class E> double norm2(const E &e) {
  double s = 0;
  for (size_t i = 0; i < 3; ++i)
    s += e[i] * e[i];
  return s;
}
double residual(const Vec3 &x, const Vec3 &target) {
  return norm2(Diff<Vec3, Vec3>{x, target});
}

int main() {
  double th[2] = {1.5, 0.5}, dth[2] = {0, 0}, data[2] = {2.0, 3.0};
  enzyme::autodiff<enzyme::Reverse>(loss, enzyme::Duplicated<const double *>(th, dth),
                                    enzyme::Const<const double *>(data));
  double w0 = 0, w1 = 0, h = 0.01;
  for (int i = 0; i <= 100; ++i) {
    double t = i * h, c = (i == 0 || i == 100) ? 0.5 : 1;
    w0 += c * std::sin(2 * t) * h;
    w1 += c * 3 * t * h;
  }
  check_close("lambda capture, d/dtheta0", dth[0], w0, 1e-12);
  check_close("lambda capture, d/dtheta1", dth[1], w1, 1e-12);
  double tt[2] = {1, 0};
  check_close("lambda capture, forward",
              enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(
                  loss, enzyme::Duplicated<const double *>(th, tt),
                  enzyme::Const<const double *>(data))),
              w0, 1e-12);

  Vec3 x{{0.3, -0.2, 1.1}}, dx{{0, 0, 0}}, target{{1, 0, 0.5}};
  enzyme::autodiff<enzyme::Reverse>(residual, enzyme::Duplicated<const Vec3 &>(x, dx),
                                    enzyme::Const<const Vec3 &>(target));
  for (int i = 0; i < 3; ++i)
    check_close("expression template, gradient", dx.d[i], 2 * (x.d[i] - target.d[i]), 1e-12);
  return check_report();
}
