// Operator overloads on small value types (issue 8 items 1 and 6): a 3-vector
// struct (+, -, unary -, scalar *, +=, [], dot, cross, norm) used inside the
// differentiated function, and a dual-number-like struct whose derivative
// part is itself differentiated (a second derivative), in reverse and forward
// mode, against central finite differences and analytic formulas.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <initializer_list>

extern "C" int enzyme_dup, enzyme_const, enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" void __enzyme_autodiff_v(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

/* ---- a 3-vector ---- */
struct Vec3 {
  double x, y, z;
  double &operator[](int i) { return i == 0 ? x : i == 1 ? y : z; }
  double operator[](int i) const { return i == 0 ? x : i == 1 ? y : z; }
  Vec3 &operator+=(const Vec3 &o) {
    x += o.x;
    y += o.y;
    z += o.z;
    return *this;
  }
  Vec3 operator-() const { return {-x, -y, -z}; }
};
inline Vec3 operator+(Vec3 a, const Vec3 &b) { return a += b; }
inline Vec3 operator-(const Vec3 &a, const Vec3 &b) { return a + (-b); }
inline Vec3 operator*(double s, const Vec3 &a) { return {s * a.x, s * a.y, s * a.z}; }
inline double dot(const Vec3 &a, const Vec3 &b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 cross(const Vec3 &a, const Vec3 &b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline double norm(const Vec3 &a) { return std::sqrt(dot(a, a)); }

// p and q are Vec3 objects (passed by pointer; for structs passed by value,
// which the ABI splits or copies, see test/Integration/struct-by-value.c).
double energy(const Vec3 *p, const Vec3 *q) {
  Vec3 c = cross(*p, *q);
  Vec3 d = *p - 2.0 * *q;
  Vec3 s{0, 0, 0};
  for (int i = 0; i < 3; i++)
    s[i] = (*p)[i] * (*q)[(i + 1) % 3];
  return norm(c) + 0.5 * dot(*p, *q) + norm(d) + dot(s, s);
}

// writes a cross product into *out (void function: the shadow holds the seed)
void cross_into(Vec3 *out, const Vec3 *a, const Vec3 *b) { *out = cross(*a, *b); }

/* ---- a dual-number-like struct ---- */
struct Dual {
  double v, d;
};
inline Dual operator+(Dual a, Dual b) { return {a.v + b.v, a.d + b.d}; }
inline Dual operator*(Dual a, Dual b) { return {a.v * b.v, a.v * b.d + a.d * b.v}; }
inline Dual operator*(double s, Dual a) { return {s * a.v, s * a.d}; }
inline Dual operator/(Dual a, Dual b) {
  return {a.v / b.v, (a.d * b.v - a.v * b.d) / (b.v * b.v)};
}
inline Dual sin(Dual a) { return {std::sin(a.v), std::cos(a.v) * a.d}; }
inline Dual exp(Dual a) { return {std::exp(a.v), std::exp(a.v) * a.d}; }

// g(x) = x^2 sin x + 3x + exp(x)/(1+x^2)... computed with Dual; returns g'(x)
double dual_deriv(double x) {
  Dual X{x, 1.0};
  Dual one{1.0, 0.0};
  Dual y = X * X * sin(X) + 3.0 * X + exp(X) / (one + X * X);
  return y.d;
}
static double g_prime(double x) {
  double u = 1 + x * x;
  return 2 * x * std::sin(x) + x * x * std::cos(x) + 3 +
         std::exp(x) * (u - 2 * x) / (u * u);
}

int main() {
  const double TOL = 1e-12, FDTOL = 1e-6, h = 1e-5;
  char what[128];
  Vec3 p{0.3, -1.2, 0.8}, q{1.1, 0.4, -0.6};

  /* reverse: gradient w.r.t. p and q */
  Vec3 dp{0, 0, 0}, dq{0, 0, 0};
  __enzyme_autodiff_v((void *)energy, enzyme_dup, &p, &dp, enzyme_dup, &q, &dq);
  double gp[3], gq[3];
  for (int i = 0; i < 3; i++) {
    double s = p[i];
    gp[i] = CENTRAL_DIFF((p[i] = t_, energy(&p, &q)), s, h);
    p[i] = s;
    s = q[i];
    gq[i] = CENTRAL_DIFF((q[i] = t_, energy(&p, &q)), s, h);
    q[i] = s;
    snprintf(what, sizeof what, "Vec3 reverse d/dp[%d]", i);
    check_close(what, dp[i], gp[i], FDTOL);
    snprintf(what, sizeof what, "Vec3 reverse d/dq[%d]", i);
    check_close(what, dq[i], gq[i], FDTOL);
  }
  /* reverse with q const */
  Vec3 dp2{0, 0, 0};
  __enzyme_autodiff_v((void *)energy, enzyme_dup, &p, &dp2, enzyme_const, &q);
  check_close("Vec3 reverse, q const: d/dp[1]", dp2[1], gp[1], FDTOL);

  /* forward: directional derivative */
  Vec3 tp{1.0, 0.5, -2.0}, tq{0.0, -1.0, 0.25};
  double t = __enzyme_fwddiff((void *)energy, enzyme_dup, &p, &tp, enzyme_dup, &q, &tq);
  check_close("Vec3 forward direction", t, dot(tp, dp) + dot(tq, dq), 1e-10);

  /* cross product into an output: reverse (seeded output) and forward */
  {
    Vec3 out{0, 0, 0}, dout{1.0, 2.0, -1.0}, da{0, 0, 0}, db{0, 0, 0};
    __enzyme_autodiff_v((void *)cross_into, enzyme_dup, &out, &dout, enzyme_dup, &p, &da,
                        enzyme_dup, &q, &db);
    Vec3 seed{1.0, 2.0, -1.0};
    // d(seed . (a x b))/da = b x seed; /db = seed x a
    Vec3 wa = cross(q, seed), wb = cross(seed, p);
    for (int i = 0; i < 3; i++) {
      snprintf(what, sizeof what, "cross reverse d/da[%d]", i);
      check_close(what, da[i], wa[i], TOL);
      snprintf(what, sizeof what, "cross reverse d/db[%d]", i);
      check_close(what, db[i], wb[i], TOL);
    }
    check_close("cross reverse: output shadow consumed", dout.x + dout.y + dout.z, 0, 0);
    check_close("cross primal", out.z, cross(p, q).z, TOL);
    Vec3 o2, to{0, 0, 0};
    __enzyme_fwddiff((void *)cross_into, enzyme_dup, &o2, &to, enzyme_dup, &p, &tp,
                     enzyme_const, &q);
    Vec3 want = cross(tp, q);
    for (int i = 0; i < 3; i++) {
      snprintf(what, sizeof what, "cross forward tangent[%d]", i);
      check_close(what, to[i], want[i], TOL);
    }
  }

  /* Dual: differentiating a forward-mode derivative gives the second one */
  for (double x : {0.4, -1.3}) {
    check_close("Dual primal is g'", dual_deriv(x), g_prime(x), TOL);
    double fd = CENTRAL_DIFF(g_prime(t_), x, h);
    snprintf(what, sizeof what, "Dual reverse g''(%g)", x);
    check_close(what, __enzyme_autodiff((void *)dual_deriv, x), fd, FDTOL);
    snprintf(what, sizeof what, "Dual forward g''(%g)", x);
    check_close(what, __enzyme_fwddiff((void *)dual_deriv, enzyme_dup, x, 1.0), fd, FDTOL);
  }
  return check_report();
}
