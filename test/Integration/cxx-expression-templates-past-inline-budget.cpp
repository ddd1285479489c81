// Expression templates (a Vec holding a std::vector, Sum and Scale nodes
// held by reference) in a function long enough (60 statements) that it
// passes -tapestry-inline-budget (4000 instructions): the remaining calls
// were differentiated on their own, among them the wrappers that copy the
// caller's array into a Vec, where nothing says the bytes are doubles
// ("cannot tell what the memory this instruction copies holds", -O1..-O3;
// probe39b F8; with the function also called directly, as a central
// difference does). Callees up to a hundredth of the budget are now inlined
// past it. Expected values are analytic: with Z = 2 X + k a Y,
//   s = sum_k sum_i sin(c_k Z_i) Z_i,  c_k = 0.01 k,  k = 1..60,
//   ds/dZ_i = c_k cos(c_k Z_i) Z_i + sin(c_k Z_i),
//   ds/da = sum ds/dZ_i k Y_i,  ds/dX_i = 2 sum_k ds/dZ_i,
//   ds/dY_i = sum_k ds/dZ_i k a.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <cstddef>
#include <vector>

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
extern int enzyme_dup, enzyme_const, enzyme_out;

template <typename E> struct VecExpr {
  double operator[](size_t i) const { return static_cast<const E&>(*this)[i]; }
  size_t size() const { return static_cast<const E&>(*this).size(); }
};
struct Vec : VecExpr<Vec> {
  std::vector<double> d;
  explicit Vec(size_t n) : d(n) {}
  Vec(const double* p, size_t n) : d(p, p + n) {}
  double operator[](size_t i) const { return d[i]; }
  double& operator[](size_t i) { return d[i]; }
  size_t size() const { return d.size(); }
  template <typename E> Vec& operator=(const VecExpr<E>& e) {
    for (size_t i = 0; i < d.size(); ++i) d[i] = e[i];
    return *this;
  }
};
template <typename A, typename B> struct Sum : VecExpr<Sum<A, B>> {
  const A& a; const B& b;
  Sum(const A& a, const B& b) : a(a), b(b) {}
  double operator[](size_t i) const { return a[i] + b[i]; }
  size_t size() const { return a.size(); }
};
template <typename A> struct Scale : VecExpr<Scale<A>> {
  double s; const A& a;
  Scale(double s, const A& a) : s(s), a(a) {}
  double operator[](size_t i) const { return s * a[i]; }
  size_t size() const { return a.size(); }
};
template <typename A, typename B> Sum<A, B> operator+(const VecExpr<A>& a, const VecExpr<B>& b) {
  return Sum<A, B>(static_cast<const A&>(a), static_cast<const B&>(b));
}
template <typename A> Scale<A> operator*(double s, const VecExpr<A>& a) { return Scale<A>(s, static_cast<const A&>(a)); }

#define STEP(k) Z = X + ((k) * alpha) * Y + X; for (size_t i = 0; i < n; ++i) s += std::sin(Z[i] * 0.01 * (k)) * Z[i];
#define STEP10(k) STEP(k) STEP(k+1) STEP(k+2) STEP(k+3) STEP(k+4) STEP(k+5) STEP(k+6) STEP(k+7) STEP(k+8) STEP(k+9)
double loss(double* x, double* y, size_t n, double alpha) {
  Vec X(x, n), Y(y, n), Z(n);
  double s = 0;
  STEP10(1) STEP10(11) STEP10(21) STEP10(31) STEP10(41) STEP10(51)
  return s;
}
int main() {
  enum { N = 4 };
  double x[N] = {0.1, 0.4, -0.3, 0.8}, y[N] = {0.5, -0.2, 0.3, 0.9};
  double dx[N] = {0}, dy[N] = {0}, a = 0.7;
  double da = __enzyme_autodiff<double>((void *)loss, enzyme_dup, x, dx,
                                        enzyme_dup, y, dy, enzyme_const,
                                        (size_t)N, enzyme_out, a);
  double wa = 0, wx[N] = {0}, wy[N] = {0};
  for (int k = 1; k <= 60; k++)
    for (int i = 0; i < N; i++) {
      double c = 0.01 * k, z = 2 * x[i] + k * a * y[i];
      double dz = c * std::cos(c * z) * z + std::sin(c * z);
      wa += dz * k * y[i];
      wx[i] += 2 * dz;
      wy[i] += dz * k * a;
    }
  check_close("d loss / d alpha", da, wa, 1e-10);
  // And against central differences of the function itself.
  double h = 1e-6;
  check_close("d loss / d alpha, central difference", da,
              (loss(x, y, N, a + h) - loss(x, y, N, a - h)) / (2 * h), 1e-6);
  for (int i = 0; i < N; i++) {
    check_close("d loss / d x", dx[i], wx[i], 1e-10);
    check_close("d loss / d y", dy[i], wy[i], 1e-10);
  }
  return check_report();
}
