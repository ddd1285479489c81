// A templated least-squares fit over std::vector<double> data (issue 8 items 2
// and 6): the mean squared residual of a model (a polynomial, and an
// exponential model given as a class template) over xs/ys vectors passed
// enzyme_const, with the parameters in a plain array (enzyme_dup) or in a
// std::vector<double> whose shadow is a second vector; the gradient w.r.t.
// the parameters in reverse mode, a directional derivative in forward mode,
// checked against the analytic gradient and central finite differences, and
// a few gradient-descent steps that must lower the loss. Instantiated with
// double and float.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <cstddef>
#include <vector>

extern "C" int enzyme_dup, enzyme_const, enzyme_out;
extern "C" void __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);
extern "C" float __enzyme_fwddiff_f(void *, ...);

template <typename T, int P> struct Poly {
  static T eval(const T *p, T x) {
    T s = 0;
    for (int k = P - 1; k >= 0; --k)
      s = s * x + p[k];
    return s;
  }
};
template <typename T> struct ExpModel { // p0 * exp(p1 x) + p2
  static T eval(const T *p, T x) { return p[0] * std::exp(p[1] * x) + p[2]; }
};

template <typename T, typename Model>
T loss(const T *p, const std::vector<T> &xs, const std::vector<T> &ys) {
  T s = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    T r = Model::eval(p, xs[i]) - ys[i];
    s += r * r;
  }
  return s / T(xs.size());
}
// parameters held in a std::vector
template <typename T, typename Model>
T loss_vec(const std::vector<T> &p, const std::vector<T> &xs, const std::vector<T> &ys) {
  return loss<T, Model>(p.data(), xs, ys);
}

using P3 = Poly<double, 3>;
using E3 = ExpModel<double>;
using P3f = Poly<float, 3>;

int main() {
  char what[128];
  std::vector<double> xs, ys;
  for (int i = 0; i < 12; i++) {
    double x = -1.0 + 0.2 * i;
    xs.push_back(x);
    ys.push_back(0.5 + 1.5 * x - 0.7 * x * x + 0.05 * std::sin(7 * x));
  }
  const int n = (int)xs.size();

  /* polynomial, parameters in an array: analytic gradient */
  double p[3] = {0.1, 1.0, -0.2}, dp[3] = {0, 0, 0};
  __enzyme_autodiff((void *)loss<double, P3>, enzyme_dup, p, dp, enzyme_const, &xs,
                    enzyme_const, &ys);
  for (int k = 0; k < 3; k++) {
    double g = 0;
    for (int i = 0; i < n; i++)
      g += 2 * (P3::eval(p, xs[i]) - ys[i]) * std::pow(xs[i], k) / n;
    snprintf(what, sizeof what, "poly reverse d/dp[%d]", k);
    check_close(what, dp[k], g, 1e-12);
  }
  double tp[3] = {1.0, -1.0, 0.5};
  check_close("poly forward direction",
              __enzyme_fwddiff((void *)loss<double, P3>, enzyme_dup, p, tp, enzyme_const,
                               &xs, enzyme_const, &ys),
              dp[0] - dp[1] + 0.5 * dp[2], 1e-12);

  /* gradient descent lowers the loss */
  {
    double q[3] = {0, 0, 0};
    double l0 = loss<double, P3>(q, xs, ys);
    for (int it = 0; it < 200; it++) {
      double g[3] = {0, 0, 0};
      __enzyme_autodiff((void *)loss<double, P3>, enzyme_dup, q, g, enzyme_const, &xs,
                        enzyme_const, &ys);
      for (int k = 0; k < 3; k++)
        q[k] -= 0.3 * g[k];
    }
    double l1 = loss<double, P3>(q, xs, ys);
    printf("%s gradient descent: loss %g -> %g, p = (%g, %g, %g)\n",
           l1 < 1e-2 * l0 ? "PASS" : "FAIL", l0, l1, q[0], q[1], q[2]);
    check_close("fitted p[1]", q[1], 1.5, 0.05);
  }

  /* exponential model, parameters in a std::vector: central differences */
  {
    std::vector<double> v = {0.8, 0.6, 0.3}, dv(3, 0.0);
    __enzyme_autodiff((void *)loss_vec<double, E3>, enzyme_dup, &v, &dv, enzyme_const, &xs,
                      enzyme_const, &ys);
    std::vector<double> tv = {0.0, 1.0, 0.0};
    double dir = 0;
    for (int k = 0; k < 3; k++) {
      double v0 = v[k];
      double fd = CENTRAL_DIFF((v[k] = t_, loss_vec<double, E3>(v, xs, ys)), v0, 1e-6);
      v[k] = v0;
      snprintf(what, sizeof what, "exp model (vector params) reverse d/dp[%d]", k);
      check_close(what, dv[k], fd, 1e-7);
      dir += tv[k] * fd;
    }
    check_close("exp model (vector params) forward",
                __enzyme_fwddiff((void *)loss_vec<double, E3>, enzyme_dup, &v, &tv,
                                 enzyme_const, &xs, enzyme_const, &ys),
                dir, 1e-7);
  }

  /* float instantiation */
  {
    std::vector<float> xf(xs.begin(), xs.end()), yf(ys.begin(), ys.end());
    float pf[3] = {0.1f, 1.0f, -0.2f}, dpf[3] = {0, 0, 0};
    __enzyme_autodiff((void *)loss<float, P3f>, enzyme_dup, pf, dpf, enzyme_const, &xf,
                      enzyme_const, &yf);
    float tpf[3] = {0.0f, 0.0f, 1.0f};
    float t = __enzyme_fwddiff_f((void *)loss<float, P3f>, enzyme_dup, pf, tpf,
                                 enzyme_const, &xf, enzyme_const, &yf);
    for (int k = 0; k < 3; k++) {
      double g = 0;
      for (int i = 0; i < n; i++) {
        double pd[3] = {pf[0], pf[1], pf[2]};
        g += 2 * (P3::eval(pd, (double)xf[i]) - yf[i]) * std::pow((double)xf[i], k) / n;
      }
      snprintf(what, sizeof what, "poly<float> reverse d/dp[%d]", k);
      check_close(what, dpf[k], g, 1e-5);
      if (k == 2)
        check_close("poly<float> forward d/dp[2]", t, g, 1e-5);
    }
  }
  return check_report();
}
