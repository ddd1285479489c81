// An Eigen user's least-squares objective with dynamic sizes: residual
// r = X p - t (a matrix-vector product Eigen evaluates in a kernel it
// never inlines) and its squared norm; p is active, X and t enzyme_const.
// d/dp |X p - t|^2 = 2 X^T (X p - t). The constant inputs stay unchanged.
// At -O0 the product's evaluator object holds the constant t's data
// pointer beside its own result buffer, and run-time activity is tracked
// per object, so the buffer's pointer counts as maybe constant in the
// evaluator's methods: its fill is checked at run time (it was rejected at
// compile time; test/Integration/runtime-activity-constant-store.c).
// RUN: %clangxx -O0 %eigen_flags %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %eigen_flags %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %eigen_flags %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %eigen_flags %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <Eigen/Dense>
#include <cmath>

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

double resid(const Eigen::VectorXd &p, const Eigen::MatrixXd &X,
             const Eigen::VectorXd &t) {
  Eigen::VectorXd r = X * p - t;
  return r.squaredNorm();
}

int main() {
  const int n = 6, m = 3;
  Eigen::MatrixXd X(n, m);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      X(i, j) = std::cos(0.3 * i + j);
  Eigen::VectorXd t(n), p(m), dp = Eigen::VectorXd::Zero(m);
  for (int i = 0; i < n; i++)
    t(i) = 0.1 * i;
  p << 0.5, -1.0, 2.0;
  const Eigen::MatrixXd X0 = X;
  const Eigen::VectorXd t0 = t;
  __enzyme_autodiff((void *)resid, enzyme_dup, &p, &dp, enzyme_const, &X,
                    enzyme_const, &t);
  // The expected gradient, written out element by element.
  for (int j = 0; j < m; j++) {
    double g = 0;
    for (int i = 0; i < n; i++) {
      double ri = -0.1 * i;
      for (int k = 0; k < m; k++)
        ri += std::cos(0.3 * i + k) * p(k);
      g += 2 * std::cos(0.3 * i + j) * ri;
    }
    check_close("d/dp", dp(j), g, 1e-12);
  }
  check_close("X unchanged", (X - X0).norm(), 0, 0);
  check_close("t unchanged", (t - t0).norm(), 0, 0);
  return check_report();
}
