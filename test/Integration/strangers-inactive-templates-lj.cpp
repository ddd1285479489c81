// A molecular-dynamics user's C++ program whose diagnostics live in
// templates: a function template, a static member function and a static
// data member of a class template, and a variable template, each marked
// __attribute__((enzyme_inactive)) (the registration must follow each
// instantiation). The Lennard-Jones energy of a small cluster, templated
// on the floating-point type, records every pair distance it sees in those
// inactive places; the gradient (the negative forces) is taken for double
// and float instantiations. Built as Enzyme's own tests build C++: with
// -Xclang -load -Xclang only, with -fpass-plugin too, and through lli.
// Expected: the analytic pair force 24 eps (2 (s/r)^12 - (s/r)^6) / r^2,
// and the inactive tallies equal to those of a plain run.
// RUN: %plain_cxx -std=c++14 -O0 -Xclang -load -Xclang %plugin %s -o %t0 && %t0 | FileCheck %s
// RUN: %plain_cxx -std=c++14 -O1 -Xclang -load -Xclang %plugin %s -o %t1 && %t1 | FileCheck %s
// RUN: %plain_cxx -std=c++14 -O2 -Xclang -load -Xclang %plugin %s -o %t2 && %t2 | FileCheck %s
// RUN: %plain_cxx -std=c++14 -O3 -Xclang -load -Xclang %plugin %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx_enzyme -std=c++14 -O0 %s -S -emit-llvm -o - | lli - | FileCheck %s
// RUN: %clangxx_enzyme -std=c++14 -O2 %s -S -emit-llvm -o - | lli - | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>

extern "C" {
void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;
}

template <typename T>
__attribute__((noinline, enzyme_inactive)) T clamp_log(T r) {
  return r < T(1e-3) ? T(1e-3) : r;
}

template <typename T> struct Monitor {
  __attribute__((enzyme_inactive)) static T closest;
  __attribute__((noinline, enzyme_inactive)) static void see(T r) {
    if (r < closest)
      closest = r;
  }
};
template <typename T> T Monitor<T>::closest = T(1e30);

template <typename T> __attribute__((enzyme_inactive)) T distance_sum = 0;

template <typename T> T lj_energy(const T *x, int n, T eps, T sigma) {
  T e = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      T r2 = 0;
      for (int k = 0; k < 3; k++) {
        T d = x[3 * i + k] - x[3 * j + k];
        r2 += d * d;
      }
      T r = std::sqrt(r2);
      Monitor<T>::see(clamp_log(r));
      distance_sum<T> += r;
      T s6 = std::pow(sigma * sigma / r2, 3);
      e += 4 * eps * (s6 * s6 - s6);
    }
  return e;
}

template <typename T> void grad(const T *x, T *dx, int n) {
  __enzyme_autodiff((void *)lj_energy<T>, enzyme_dup, x, dx, enzyme_const, n,
                    enzyme_const, T(1.0), enzyme_const, T(1.1));
}

template <typename T>
void analytic(const T *x, int n, double eps, double sigma, double *g) {
  for (int i = 0; i < 3 * n; i++)
    g[i] = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double d[3], r2 = 0;
      for (int k = 0; k < 3; k++) {
        d[k] = (double)x[3 * i + k] - (double)x[3 * j + k];
        r2 += d[k] * d[k];
      }
      double s6 = std::pow(sigma * sigma / r2, 3);
      double f = 24 * eps * (2 * s6 * s6 - s6) / r2; // -dE/dr / r
      for (int k = 0; k < 3; k++) {
        g[3 * i + k] -= f * d[k];
        g[3 * j + k] += f * d[k];
      }
    }
}

int main() {
  const int n = 4;
  double x[3 * n] = {0, 0, 0, 1.2, 0.1, 0, 0.3, 1.15, -0.2, 0.5, 0.4, 1.05};
  double plain = lj_energy<double>(x, n, 1.0, 1.1);
  (void)plain;
  double closest = Monitor<double>::closest, dsum = distance_sum<double>;

  double dx[3 * n] = {0}, g[3 * n];
  grad<double>(x, dx, n);
  analytic(x, n, 1.0, 1.1, g);
  for (int i = 0; i < 3 * n; i++) {
    char name[32];
    snprintf(name, sizeof name, "double dE/dx[%d]", i);
    check_close(name, dx[i], g[i], 1e-10);
  }
  check_close("closest unchanged", Monitor<double>::closest, closest, 0);
  check_close("distance tally doubled by the primal sweep only",
              distance_sum<double>, 2 * dsum, 1e-14);

  float xf[3 * n], dxf[3 * n] = {0};
  for (int i = 0; i < 3 * n; i++)
    xf[i] = (float)x[i];
  grad<float>(xf, dxf, n);
  analytic(xf, n, 1.0, (double)1.1f, g);
  for (int i = 0; i < 3 * n; i++) {
    char name[32];
    snprintf(name, sizeof name, "float dE/dx[%d]", i);
    check_close(name, dxf[i], g[i], 1e-4);
  }
  check_close("float monitor saw pairs", Monitor<float>::closest < 2, 1, 0);
  return check_report();
}
