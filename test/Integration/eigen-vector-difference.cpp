// The smallest Eigen expression with a constant operand: r = p - t with
// dynamic vectors, |r|^2. At -O0 Eigen's expression object holds
// references to p (active) and t (enzyme_const) and is evaluated through
// functions that are not inlined: t must never be written, and
// d/dp |p - t|^2 = 2 (p - t).
// RUN: %clangxx -O0 %eigen_flags %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %eigen_flags %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %eigen_flags %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %eigen_flags %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <Eigen/Dense>

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

double resid(const Eigen::VectorXd &p, const Eigen::VectorXd &t) {
  Eigen::VectorXd r = p - t;
  return r.squaredNorm();
}

int main() {
  Eigen::VectorXd t(3), p(3), dp = Eigen::VectorXd::Zero(3);
  const double tv[3] = {0, 0.1, 0.2}, pv[3] = {0.5, -1.0, 2.0};
  for (int i = 0; i < 3; i++) {
    t(i) = tv[i];
    p(i) = pv[i];
  }
  __enzyme_autodiff((void *)resid, enzyme_dup, &p, &dp, enzyme_const, &t);
  for (int i = 0; i < 3; i++) {
    check_close("t unchanged", t(i), tv[i], 0);
    check_close("d/dp", dp(i), 2 * (pv[i] - tv[i]), 1e-14);
  }
  return check_report();
}
