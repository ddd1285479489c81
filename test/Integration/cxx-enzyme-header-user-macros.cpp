// Scientific code defines short macros before its includes (`#define N
// 8`, `-DA=...`): <enzyme/enzyme> must compile under them, as standard
// headers do (their names are reserved, _Tp, _Np). Expected value
// analytic: d/dx sum_{i<N} A x^2 = 2 A N x.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#define N 8
#define A 1.5
#define B 0
#include "Inputs/check.h"
#include <enzyme/enzyme>

double energy(double x) {
  double s = B;
  for (int i = 0; i < N; ++i)
    s += A * x * x;
  return s;
}

int main() {
  double x = 0.7;
  double d = enzyme::get<0>(enzyme::get<0>(
      enzyme::autodiff<enzyme::Reverse>(energy, enzyme::Active(x))));
  check_close("d energy / dx", d, 2 * A * N * x, 1e-12);
  return check_report();
}
