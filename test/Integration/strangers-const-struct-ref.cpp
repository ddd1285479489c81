// Model settings held in a struct passed by const reference as enzyme_const:
// a std::vector of knots, an int order, a scale and a pointer to data.
// Logistic-regression negative log-likelihood with L2 penalty.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <string>
#include <vector>
extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

struct Settings {
  std::string name;
  int nfeat;
  double lambda;
  std::vector<double> X; // row-major, n x nfeat
  std::vector<int> y;
};

double nll(const double *w, const Settings &s) {
  int n = (int)s.y.size();
  double L = 0;
  for (int i = 0; i < n; i++) {
    double z = 0;
    for (int j = 0; j < s.nfeat; j++) z += s.X[i * s.nfeat + j] * w[j];
    L += std::log1p(std::exp(-z)) + (1 - s.y[i]) * z;
  }
  for (int j = 0; j < s.nfeat; j++) L += 0.5 * s.lambda * w[j] * w[j];
  return L;
}

int main() {
  Settings s{"toy", 3, 0.1, {}, {1, 0, 1, 1, 0, 0}};
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 3; j++) s.X.push_back(std::sin(1.0 + i * 3 + j));
  double w[3] = {0.3, -0.2, 0.5}, dw[3] = {0};
  __enzyme_autodiff((void *)nll, enzyme_dup, w, dw, enzyme_const, &s);
  for (int j = 0; j < 3; j++) {
    double g = s.lambda * w[j];
    for (int i = 0; i < 6; i++) {
      double z = 0;
      for (int k = 0; k < 3; k++) z += s.X[i * 3 + k] * w[k];
      double p = 1 / (1 + std::exp(-z));
      g += (p - s.y[i]) * s.X[i * 3 + j];
    }
    check_close("dL/dw", dw[j], g, 1e-10);
  }
  return check_report();
}
