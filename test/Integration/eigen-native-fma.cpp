// Eigen's dynamic-size matrices compiled for a machine with AVX2 and FMA
// (what -march=native gives on most x86-64 machines). Eigen's packet
// multiply-add is then inline assembly (asm("vfmadd231pd ...")), which is
// llvm.fma (Synthesis/KnownInlineAsm.h): it was "an inline assembly
// statement (asm) takes or gives active values", for every product.
// Expected: d/dx |A x|^2 = 2 A^T A x, d/dA |A x|^2 = 2 (A x) x^T.
// REQUIRES: x86-avx2-fma
// RUN: %clangxx -O2 -mavx2 -mfma %eigen_flags %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 -march=native %eigen_flags %s -o %t3 && %t3 | FileCheck %s
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
