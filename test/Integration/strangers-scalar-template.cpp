// A Rosenbrock function templated over the scalar type, differentiated for
// double (reverse) and float (forward).
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
extern "C" int enzyme_dup, enzyme_const, enzyme_dupnoneed;
extern "C" void __enzyme_autodiff(void *, ...);
extern "C" float __enzyme_fwddiff(void *, ...);

template <typename T> T rosen(const T *x, int n) {
  T s = T(0);
  for (int i = 0; i + 1 < n; ++i) {
    T a = x[i + 1] - x[i] * x[i];
    T b = T(1) - x[i];
    s += T(100) * a * a + b * b;
  }
  return s;
}

template <typename T> void grad_ref(const T *x, int n, double *g) {
  for (int i = 0; i < n; i++) g[i] = 0;
  for (int i = 0; i + 1 < n; ++i) {
    double a = (double)x[i + 1] - (double)x[i] * x[i];
    g[i] += -400 * a * x[i] - 2 * (1 - (double)x[i]);
    g[i + 1] += 200 * a;
  }
}

int main() {
  const int n = 5;
  double x[n] = {-1.2, 1.0, 0.5, -0.3, 0.8}, dx[n] = {0}, g[n];
  __enzyme_autodiff((void *)rosen<double>, enzyme_dup, x, dx, enzyme_const, n);
  grad_ref(x, n, g);
  for (int i = 0; i < n; i++) check_close("double", dx[i], g[i], 1e-12);

  float xf[n] = {-1.2f, 1.0f, 0.5f, -0.3f, 0.8f};
  grad_ref(xf, n, g);
  for (int i = 0; i < n; i++) {
    float v[n] = {0};
    v[i] = 1;
    float d = __enzyme_fwddiff((void *)rosen<float>, enzyme_dup, xf, v,
                               enzyme_const, n);
    check_close("float", d, g[i], 1e-4);
  }
  return check_report();
}
