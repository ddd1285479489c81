// A gradient through Eigen's Cholesky solve on dynamic matrices, an
// everyday Eigen idiom: q(s, y) = y^T A(s)^{-1} y with A(s) = K + s I, K a
// fixed symmetric positive definite matrix. Eigen's SSE2 packet code moves
// lanes with integer shuffles (_mm_shuffle_epi32 on a cast __m128d) and
// takes absolute values with a sign mask (pabs): both were "a vector of 2
// double is reinterpreted as a vector of 2 long"; its triangular solvers,
// kept as calls at -O0 or when large, allocate a stack buffer below a size
// limit and malloc above it, and the buffer on one path only was "a stack
// array of variable size whose contents the reverse half needs" (probe27
// F3). Expected: dq/ds = -|A^{-1} y|^2, dq/dy = 2 A^{-1} y (A symmetric),
// with A^{-1} y computed by a separate solve; and a central finite
// difference in s. eigen-avx-kept-calls.cpp compiles it for AVX.
// RUN: %clangxx -O0 %eigen_flags %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %eigen_flags %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %eigen_flags %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %eigen_flags %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <Eigen/Dense>
#include <cmath>

extern "C" int enzyme_out, enzyme_dup;
extern "C" double __enzyme_autodiff(void *, ...);

static const int N = 10;

static Eigen::MatrixXd matrix(double s) {
  Eigen::MatrixXd A(N, N);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A(i, j) = std::exp(-0.3 * std::abs(i - j)) + (i == j) * s;
  return A;
}

double quad(double s, const double *yv) {
  Eigen::MatrixXd A = matrix(s);
  Eigen::VectorXd y(N);
  for (int i = 0; i < N; i++)
    y(i) = yv[i];
  Eigen::VectorXd x = A.llt().solve(y);
  return y.dot(x);
}

int main() {
  double s = 0.5, yv[N], dy[N] = {0};
  for (int i = 0; i < N; i++)
    yv[i] = -1.0 + 2.0 * i / (N - 1) + 0.1 * (i % 3);
  double ds = __enzyme_autodiff((void *)quad, enzyme_out, s, enzyme_dup, yv,
                                dy);
  Eigen::VectorXd y = Eigen::Map<Eigen::VectorXd>(yv, N);
  Eigen::VectorXd x = matrix(s).llt().solve(y);
  check_close("dq/ds", ds, -x.squaredNorm(), 1e-10);
  double e = 1e-6;
  check_close("dq/ds (finite difference)", ds,
              (quad(s + e, yv) - quad(s - e, yv)) / (2 * e), 1e-6);
  char what[32];
  for (int i = 0; i < N; i++) {
    snprintf(what, sizeof what, "dq/dy%d", i);
    check_close(what, dy[i], 2 * x(i), 1e-10);
  }
  return check_report();
}
