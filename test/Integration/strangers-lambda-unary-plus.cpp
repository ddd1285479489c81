// A captureless lambda converted to a function pointer with unary plus and
// handed to __enzyme_autodiff; the lambda calls a member function of a
// model object given as enzyme_const.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <vector>
extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

class Model {
public:
  explicit Model(std::vector<double> t) : t_(std::move(t)) {}
  double predict(const double *theta, double t) const {
    return theta[0] * std::exp(-theta[1] * t) + theta[2];
  }
  double sse(const double *theta, const std::vector<double> &y) const {
    double s = 0;
    for (size_t i = 0; i < t_.size(); ++i) {
      double r = predict(theta, t_[i]) - y[i];
      s += r * r;
    }
    return s;
  }
  const std::vector<double> &times() const { return t_; }

private:
  std::vector<double> t_;
};

int main() {
  Model m({0.0, 0.5, 1.0, 1.5, 2.0, 3.0});
  std::vector<double> y = {2.1, 1.6, 1.2, 1.0, 0.9, 0.7};
  double th[3] = {2.0, 0.8, 0.5}, dth[3] = {0};
  auto f = +[](const Model *m, const double *th, const std::vector<double> *y) {
    return m->sse(th, *y);
  };
  __enzyme_autodiff((void *)f, enzyme_const, &m, enzyme_dup, th, dth, enzyme_const, &y);
  double g[3] = {0};
  for (size_t i = 0; i < y.size(); i++) {
    double t = m.times()[i], e = std::exp(-th[1] * t);
    double r = th[0] * e + th[2] - y[i];
    g[0] += 2 * r * e; g[1] += 2 * r * (-th[0] * t * e); g[2] += 2 * r;
  }
  for (int i = 0; i < 3; i++) check_close("dtheta", dth[i], g[i], 1e-10);
  return check_report();
}
