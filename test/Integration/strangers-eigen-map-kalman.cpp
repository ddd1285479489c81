// One Kalman-filter update written with Eigen::Map over raw double arrays
// (state and covariance), Matrix2d inverse and determinant; the Gaussian
// negative log-likelihood of a measurement differentiated with respect to
// the prior mean and covariance entries.
// At -O0 a Matrix2d temporary of Eigen's product evaluator is kept on the
// tape; Eigen asserts that it is 16-byte aligned (it aborted with "this
// assertion is explained here: ... TopicUnalignedArrayAssert" while tape
// fields were only 8-byte aligned). Reduced:
// strangers-tape-local-alignment.c.
// RUN: %clangxx -std=c++17 -O0 %eigen_flags %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %eigen_flags %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %eigen_flags %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %eigen_flags %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <Eigen/Dense>
#include <cmath>
extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

double kalman_nll(const double *xm, const double *Pm, const double *zraw) {
  Eigen::Map<const Eigen::Vector2d> x(xm);
  Eigen::Map<const Eigen::Matrix2d> P(Pm);
  Eigen::Map<const Eigen::Vector2d> z(zraw);
  Eigen::Matrix2d F;
  F << 1, 0.1, 0, 1;
  Eigen::Matrix2d Q = 0.01 * Eigen::Matrix2d::Identity();
  Eigen::Matrix2d R;
  R << 0.2, 0.05, 0.05, 0.3;
  Eigen::Vector2d xp = F * x;
  Eigen::Matrix2d S = F * P * F.transpose() + Q + R;
  Eigen::Vector2d r = z - xp;
  return 0.5 * r.dot(S.inverse() * r) + 0.5 * std::log(S.determinant());
}

int main() {
  double x[2] = {0.5, -0.2}, P[4] = {0.4, 0.1, 0.1, 0.3}, z[2] = {0.9, 0.1};
  double dx[2] = {0}, dP[4] = {0};
  __enzyme_autodiff((void *)kalman_nll, enzyme_dup, x, dx, enzyme_dup, P, dP,
                    enzyme_const, z);
  for (int i = 0; i < 2; i++) {
    double q[2] = {x[0], x[1]};
    check_close("dx", dx[i], CENTRAL_DIFF((q[i] = t_, kalman_nll(q, P, z)), x[i], 1e-6), 1e-7);
  }
  for (int i = 0; i < 4; i++) {
    double q[4] = {P[0], P[1], P[2], P[3]};
    check_close("dP", dP[i], CENTRAL_DIFF((q[i] = t_, kalman_nll(x, q, z)), P[i], 1e-6), 1e-7);
  }
  return check_report();
}
