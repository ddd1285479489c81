// A C++ user's small fixed-size matrix class (no Eigen): Mat3 with
// operator*, operator+, operator* by a scalar, transpose, trace and det as
// member functions, all by value; the function differentiated is the
// Saint-Venant-Kirchhoff strain energy of a deformation gradient F,
// psi = mu tr(E^2) + lambda/2 tr(E)^2 with E = (F^T F - I)/2, plus
// a log-det term. Expected values are central finite differences.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 -march=native -ffast-math %s -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(...);

struct Mat3 {
  double a[3][3];
  static Mat3 identity() {
    Mat3 m{};
    for (int i = 0; i < 3; ++i)
      m.a[i][i] = 1;
    return m;
  }
  Mat3 operator*(const Mat3 &o) const {
    Mat3 r{};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k)
          r.a[i][j] += a[i][k] * o.a[k][j];
    return r;
  }
  Mat3 operator+(const Mat3 &o) const {
    Mat3 r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        r.a[i][j] = a[i][j] + o.a[i][j];
    return r;
  }
  Mat3 operator*(double s) const {
    Mat3 r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        r.a[i][j] = a[i][j] * s;
    return r;
  }
  Mat3 transpose() const {
    Mat3 r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        r.a[i][j] = a[j][i];
    return r;
  }
  double trace() const { return a[0][0] + a[1][1] + a[2][2]; }
  double det() const {
    return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
           a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
           a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
  }
};

double svk_energy(const Mat3 *F, double mu, double lambda) {
  Mat3 E = (F->transpose() * *F + Mat3::identity() * -1.0) * 0.5;
  double trE = E.trace();
  double J = F->det();
  return mu * (E * E).trace() + 0.5 * lambda * trE * trE -
         0.1 * mu * std::log(J);
}

int main() {
  Mat3 F, dF{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      F.a[i][j] = (i == j ? 1.1 : 0.0) + 0.05 * (i + 2 * j) - 0.07 * i * j;
  double mu = 1.3, lambda = 2.2;
  __enzyme_autodiff((void *)svk_energy, enzyme_dup, &F, &dF, enzyme_const, mu,
                    enzyme_const, lambda);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Mat3 G = F;
      double want =
          CENTRAL_DIFF((G.a[i][j] = t_, svk_energy(&G, mu, lambda)), F.a[i][j],
                       1e-6);
      check_close("dpsi/dF", dF.a[i][j], want, 1e-7);
    }
  return check_report();
}
