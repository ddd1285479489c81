// 1D bar finite elements: stiffness assembled through a connectivity index
// array into a dense std::vector, solved by Gaussian elimination; the
// compliance f.u differentiated with respect to each element's modulus.
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

struct Mesh {
  int nn, ne;
  std::vector<int> conn; // 2 per element
  std::vector<double> len;
};

double compliance(const double *E, const Mesh &m, const double *f) {
  int n = m.nn - 1; // node 0 fixed
  std::vector<double> K(n * n, 0.0), u(n);
  for (int e = 0; e < m.ne; e++) {
    double k = E[e] / m.len[e];
    int idx[2] = {m.conn[2 * e], m.conn[2 * e + 1]};
    double ke[2][2] = {{k, -k}, {-k, k}};
    for (int a = 0; a < 2; a++)
      for (int b = 0; b < 2; b++) {
        int I = idx[a] - 1, J = idx[b] - 1;
        if (I >= 0 && J >= 0) K[I * n + J] += ke[a][b];
      }
  }
  for (int i = 0; i < n; i++) u[i] = f[i + 1];
  for (int c = 0; c < n; c++)
    for (int r = c + 1; r < n; r++) {
      double l = K[r * n + c] / K[c * n + c];
      for (int j = c; j < n; j++) K[r * n + j] -= l * K[c * n + j];
      u[r] -= l * u[c];
    }
  for (int i = n - 1; i >= 0; i--) {
    double s = u[i];
    for (int j = i + 1; j < n; j++) s -= K[i * n + j] * u[j];
    u[i] = s / K[i * n + i];
  }
  double c = 0;
  for (int i = 0; i < n; i++) c += f[i + 1] * u[i];
  return c;
}

int main() {
  Mesh m{5, 4, {0, 1, 1, 2, 2, 3, 3, 4}, {1.0, 0.8, 1.2, 0.5}};
  double E[4] = {2.0, 3.0, 1.5, 4.0}, dE[4] = {0};
  double f[5] = {0, 0.1, 0.2, -0.1, 1.0};
  __enzyme_autodiff((void *)compliance, enzyme_dup, E, dE, enzyme_const, &m,
                    enzyme_const, f);
  // Series bar: u_i = sum_{e<=i} (L_e/E_e) * (sum of loads beyond element e)
  // compliance = sum_e L_e/E_e * N_e^2, N_e = sum_{j>e} f_j; dC/dE_e = -L_e N_e^2/E_e^2
  for (int e = 0; e < 4; e++) {
    double N = 0;
    for (int j = e + 1; j < 5; j++) N += f[j];
    check_close("dC/dE", dE[e], -m.len[e] * N * N / (E[e] * E[e]), 1e-10);
  }
  return check_report();
}
