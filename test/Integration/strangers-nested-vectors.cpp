// A C++ user's matrix as std::vector<std::vector<double>> (rows allocated
// separately), passed by reference with a shadow of the same shape; the
// Frobenius norm of A^T A - I (orthogonality defect) differentiated with
// respect to A. Analytic: d/dA ||A^T A - I||^2 = 4 A (A^T A - I).
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 -march=native -ffast-math %s -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <vector>

using Matrix = std::vector<std::vector<double>>;
extern "C" int enzyme_dup;
extern "C" void __enzyme_autodiff(void *, ...);

double defect(const Matrix &A) {
  std::size_t n = A.size(), m = A[0].size();
  double s = 0;
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      double g = 0;
      for (std::size_t k = 0; k < n; ++k)
        g += A[k][i] * A[k][j];
      g -= i == j;
      s += g * g;
    }
  return s;
}

int main() {
  const int n = 4, m = 3;
  Matrix A(n, std::vector<double>(m)), dA(n, std::vector<double>(m, 0.0));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      A[i][j] = (i == j) + 0.1 * (i - j) + 0.05 * i * j;
  __enzyme_autodiff((void *)defect, enzyme_dup, &A, &dA);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < m; ++c) {
      double want = 0;
      for (int j = 0; j < m; ++j) {
        double g = 0;
        for (int k = 0; k < n; ++k)
          g += A[k][c] * A[k][j];
        g -= c == j;
        want += 4 * A[r][j] * g;
      }
      check_close("d/dA", dA[r][c], want, 1e-12);
    }
  return check_report();
}
