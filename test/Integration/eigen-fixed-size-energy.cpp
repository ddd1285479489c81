// An Eigen user's energy with fixed-size types: Vector3d and Matrix3d,
// y = A x, E = x.y / 2 + 0.1 |y|^2 + sin(x_0), A constant. The gradient is
// (A + A^T) x / 2 + 0.2 A^T A x + cos(x_0) e_0.
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

double energy(const Eigen::Vector3d &x, const Eigen::Matrix3d &A) {
  Eigen::Vector3d y = A * x;
  return 0.5 * x.dot(y) + y.squaredNorm() * 0.1 + std::sin(x(0));
}

int main() {
  const double a[3][3] = {{2, 0.5, 0}, {0.5, 3, 0.2}, {0, 0.2, 1}};
  Eigen::Matrix3d A;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      A(i, j) = a[i][j];
  Eigen::Vector3d x(0.3, -0.7, 1.1), dx = Eigen::Vector3d::Zero();
  __enzyme_autodiff((void *)energy, enzyme_dup, &x, &dx, enzyme_const, &A);
  double y[3], xs[3] = {0.3, -0.7, 1.1};
  for (int i = 0; i < 3; i++) {
    y[i] = 0;
    for (int k = 0; k < 3; k++)
      y[i] += a[i][k] * xs[k];
  }
  for (int j = 0; j < 3; j++) {
    double g = 0;
    for (int i = 0; i < 3; i++)
      g += 0.5 * (a[j][i] + a[i][j]) * xs[i] + 0.2 * a[i][j] * y[i];
    if (j == 0)
      g += std::cos(xs[0]);
    check_close("dE/dx", dx(j), g, 1e-12);
  }
  check_close("A unchanged", A(0, 1), 0.5, 0);
  return check_report();
}
