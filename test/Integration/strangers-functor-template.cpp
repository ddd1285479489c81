// A function object with operator() and state, differentiated through a
// function template `eval<F>` that takes it by pointer, as generic
// optimisation code does.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

struct Himmelblau {
  double shift;
  double operator()(const double *x) const {
    double a = x[0] * x[0] + x[1] - 11 + shift, b = x[0] + x[1] * x[1] - 7;
    return a * a + b * b;
  }
};
struct Ackley {
  double a = 20, b = 0.2, c = 2 * M_PI;
  double operator()(const double *x) const {
    double s1 = 0.5 * (x[0] * x[0] + x[1] * x[1]);
    double s2 = 0.5 * (std::cos(c * x[0]) + std::cos(c * x[1]));
    return -a * std::exp(-b * std::sqrt(s1)) - std::exp(s2) + a + M_E;
  }
};

template <class F> double eval(const F *f, const double *x) { return (*f)(x); }
template <class F> void gradient(const F &f, const double *x, double *g) {
  g[0] = g[1] = 0;
  __enzyme_autodiff((void *)eval<F>, enzyme_const, &f, enzyme_dup, x, g);
}

template <class F> void check(const F &f, const char *name) {
  double x[2] = {1.3, -0.6}, g[2];
  gradient(f, x, g);
  for (int i = 0; i < 2; i++) {
    double q[2] = {x[0], x[1]};
    check_close(name, g[i], CENTRAL_DIFF((q[i] = t_, f(q)), x[i], 1e-6), 1e-7);
  }
}

int main() {
  check(Himmelblau{0.5}, "himmelblau");
  check(Ackley{}, "ackley");
  return check_report();
}
