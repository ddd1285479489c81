// Eigen's dynamic-size matrices compiled with AVX2 (as -march=native does
// on most machines): the 32-byte alignment AVX wants is more than malloc
// gives, so Eigen allocates through its hand-made aligned allocator, which
// rounds the address through an integer. That was an error naming Eigen's
// internal buffer ("an active value is stored through parameter 5, which
// is enzyme_const"); its shadow is now at the same offset from the shadow
// block, and the derivative's AVX loads assume only a double's alignment
// (the shadow block need not be aligned like the matrix's).
// The derivative is compiled for the baseline CPU (%any_x86_cpu) so that
// the test runs on any x86-64. Expected: d/dx |A x|^2 = 2 A^T A x,
// d/dA |A x|^2 = 2 (A x) x^T.
// RUN: %clangxx -O0 -mavx2 %eigen_flags -S -emit-llvm %s -o - | %any_x86_cpu > %t0.ll
// RUN: %plain_cxx -O0 %t0.ll -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O2 -mavx2 %eigen_flags -S -emit-llvm %s -o - | %any_x86_cpu > %t2.ll
// RUN: %plain_cxx -O2 %t2.ll -o %t2 && %t2 | FileCheck %s
// With FMA too: eigen-native-fma.cpp.
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <Eigen/Dense>

extern "C" int enzyme_dup;
extern "C" void __enzyme_autodiff(void *, ...);

using Eigen::MatrixXd;
using Eigen::VectorXd;

double norm_of_product(const VectorXd &x, const MatrixXd &A) {
  return (A * x).squaredNorm();
}

int main() {
  VectorXd x(5);
  x << 0.1, 0.2, -0.3, 0.4, 0.5;
  MatrixXd A(4, 5);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j)
      A(i, j) = 0.3 * i - 0.2 * j + (i == j ? 1.0 : 0.0);
  VectorXd dx = VectorXd::Zero(5);
  MatrixXd dA = MatrixXd::Zero(4, 5);
  __enzyme_autodiff((void *)norm_of_product, enzyme_dup, &x, &dx, enzyme_dup,
                    &A, &dA);
  VectorXd Ax = A * x;
  VectorXd wantx = 2 * A.transpose() * Ax;
  MatrixXd wantA = 2 * Ax * x.transpose();
  for (int j = 0; j < 5; ++j)
    check_close("d/dx", dx(j), wantx(j), 1e-13);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j)
      check_close("d/dA", dA(i, j), wantA(i, j), 1e-13);
  return check_report();
}
