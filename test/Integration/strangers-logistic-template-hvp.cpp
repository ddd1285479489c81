// A statistician's C++ program: L2-regularised logistic regression whose
// model is a class holding its weights in a std::vector<double>, the data a
// class of std::vectors, and the negative log-likelihood a member function
// (log1p/exp written stably, with a branch on the sign of the margin).
// Enzyme's entry points are declared the way Enzyme's C++ users declare
// them, as never-defined variadic templates:
//   template <typename T, typename... Args> T __enzyme_autodiff(void *, Args...);
// The gradient comes from a shadow Model of the same shape (enzyme_dup), the
// data enzyme_const; a Hessian-vector product is forward mode over that
// gradient. Expected: grad = sum_i (sigma(m_i) - y_i) x_i + lambda w and
// H v = sum_i sigma'(m_i) (x_i . v) x_i + lambda v, in closed form.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx_enzyme -std=c++17 -O2 %s -S -emit-llvm -o - | lli - | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <vector>

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
template <typename T, typename... Args> T __enzyme_autodiff(void *, Args...);
template <typename T, typename... Args> T __enzyme_fwddiff(void *, Args...);

struct Dataset {
  std::vector<double> x; // rows of dim features
  std::vector<double> y; // labels 0/1
  int dim;
  int rows() const { return (int)y.size(); }
};

class Model {
public:
  explicit Model(int dim) : w(dim, 0.0), bias(0.0) {}
  std::vector<double> w;
  double bias;

  double margin(const Dataset &d, int i) const {
    double m = bias;
    for (int j = 0; j < d.dim; j++)
      m += w[j] * d.x[i * d.dim + j];
    return m;
  }
  // -log p(y | x) for one row, stable for either sign of the margin.
  static double nll_row(double m, double y) {
    double softplus = m > 0 ? m + log1p(exp(-m)) : log1p(exp(m));
    return softplus - y * m;
  }
  double loss(const Dataset &d, double lambda) const {
    double s = 0;
    for (int i = 0; i < d.rows(); i++)
      s += nll_row(margin(d, i), d.y[i]);
    double r = 0;
    for (double wj : w)
      r += wj * wj;
    return s + 0.5 * lambda * r;
  }
};

double objective(const Model *m, const Dataset *d, double lambda) {
  return m->loss(*d, lambda);
}

void gradient(const Model *m, Model *dm, const Dataset *d, double lambda) {
  __enzyme_autodiff<void>((void *)objective, enzyme_dup, m, dm, enzyme_const,
                          d, enzyme_const, lambda);
}

static double sigma(double m) { return 1 / (1 + exp(-m)); }

int main() {
  Dataset d;
  d.dim = 3;
  const int n = 7;
  for (int i = 0; i < n; i++) {
    d.x.push_back(sin(1.3 * i + 0.2));
    d.x.push_back(cos(0.7 * i) - 0.3);
    d.x.push_back(0.1 * i - 0.25);
    d.y.push_back(i % 3 == 0 ? 1.0 : 0.0);
  }
  Model m(3);
  m.w = {0.8, -1.9, 2.4};
  m.bias = -0.4;
  const double lambda = 0.15;

  Model dm(3);
  gradient(&m, &dm, &d, lambda);
  double gw[3] = {lambda * m.w[0], lambda * m.w[1], lambda * m.w[2]};
  double gb = 0;
  for (int i = 0; i < n; i++) {
    double r = sigma(m.margin(d, i)) - d.y[i];
    for (int j = 0; j < 3; j++)
      gw[j] += r * d.x[i * 3 + j];
    gb += r;
  }
  for (int j = 0; j < 3; j++) {
    char name[32];
    snprintf(name, sizeof name, "dL/dw%d", j);
    check_close(name, dm.w[j], gw[j], 1e-12);
  }
  check_close("dL/dbias", dm.bias, gb, 1e-12);

  // Hessian-vector product: forward mode over the gradient.
  Model v(3), dmv(3), ddm(3);
  v.w = {0.5, -1.0, 2.0};
  v.bias = 0.3;
  __enzyme_fwddiff<void>((void *)gradient, enzyme_dup, &m, &v, enzyme_dup,
                         &dmv, &ddm, enzyme_const, &d, enzyme_const, lambda);
  double hv[4] = {lambda * v.w[0], lambda * v.w[1], lambda * v.w[2], 0};
  for (int i = 0; i < n; i++) {
    double s = sigma(m.margin(d, i));
    double xv = v.bias;
    for (int j = 0; j < 3; j++)
      xv += d.x[i * 3 + j] * v.w[j];
    for (int j = 0; j < 3; j++)
      hv[j] += s * (1 - s) * xv * d.x[i * 3 + j];
    hv[3] += s * (1 - s) * xv;
  }
  for (int j = 0; j < 3; j++) {
    char name[32];
    snprintf(name, sizeof name, "(Hv)_w%d", j);
    check_close(name, ddm.w[j], hv[j], 1e-12);
  }
  check_close("(Hv)_bias", ddm.bias, hv[3], 1e-12);
  check_close("gradient under fwddiff", dmv.bias, gb, 1e-12);
  return check_report();
}
