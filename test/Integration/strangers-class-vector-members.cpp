// A C++ user's program: a polynomial-regression model as a class holding
// std::vector<double> coefficients and data, with const methods, and the
// loss method's gradient with respect to the coefficients (the model and
// its shadow passed as `this`, Enzyme's spelling for a member function
// through a free wrapper). Enzyme-style template declaration of the entry
// point. Analytic gradient: dL/dc_k = sum_i 2 r_i x_i^k / n.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 -march=native -ffast-math %s -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <vector>

int enzyme_dup, enzyme_const;
template <typename Ret, typename... Args> Ret __enzyme_autodiff(Args...);

class PolyModel {
public:
  explicit PolyModel(std::size_t degree) : coeffs(degree + 1, 0.0) {}
  double predict(double x) const {
    double r = 0;
    for (std::size_t k = coeffs.size(); k-- > 0;)
      r = r * x + coeffs[k];
    return r;
  }
  double loss(const std::vector<double> &xs,
              const std::vector<double> &ys) const {
    double s = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      double r = predict(xs[i]) - ys[i];
      s += r * r;
    }
    return s / xs.size();
  }
  std::vector<double> coeffs;
};

static double model_loss(const PolyModel *m, const std::vector<double> *xs,
                         const std::vector<double> *ys) {
  return m->loss(*xs, *ys);
}

int main() {
  PolyModel m(3), dm(3);
  for (std::size_t k = 0; k < m.coeffs.size(); ++k)
    m.coeffs[k] = 0.3 - 0.2 * k;
  std::vector<double> xs, ys;
  for (int i = 0; i < 10; ++i) {
    xs.push_back(-1 + 0.2 * i);
    ys.push_back(std::sin(xs.back()));
  }
  __enzyme_autodiff<void>((void *)model_loss, enzyme_dup, &m, &dm,
                          enzyme_const, &xs, enzyme_const, &ys);
  for (std::size_t k = 0; k < m.coeffs.size(); ++k) {
    double want = 0;
    for (std::size_t i = 0; i < xs.size(); ++i)
      want += 2 * (m.predict(xs[i]) - ys[i]) * std::pow(xs[i], (double)k);
    check_close("dL/dc", dm.coeffs[k], want / xs.size(), 1e-12);
  }
  return check_report();
}
