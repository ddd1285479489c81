// A C++ user's solver object whose method resizes a std::vector member
// (a work buffer grown on first use) inside the differentiated call, the
// object passed enzyme_dup with a shadow object constructed the same way.
// Gradient of sum_i (P_i x_i)^2, P_i a cumulative product of the
// parameters, with respect to x and the parameters: central finite
// differences.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 -march=native -ffast-math %s -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <vector>

extern int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(...);

struct Solver {
  std::vector<double> params;
  std::vector<double> work;
  double run(const double *x, int n) {
    if (work.size() < (std::size_t)n)
      work.resize(n);
    double p = 1;
    for (int i = 0; i < n; ++i) {
      p *= params[i % params.size()];
      work[i] = p * x[i];
    }
    double s = 0;
    for (int i = 0; i < n; ++i)
      s += work[i] * work[i];
    return s;
  }
};

static double run_solver(Solver *s, const double *x, int n) {
  return s->run(x, n);
}

int main() {
  const int n = 6;
  Solver s, ds;
  s.params = {1.1, 0.9, 1.05};
  ds.params = {0, 0, 0};
  double x[n], dx[n] = {0};
  for (int i = 0; i < n; ++i)
    x[i] = 0.3 * i - 0.6;
  __enzyme_autodiff((void *)run_solver, enzyme_dup, &s, &ds, enzyme_dup, x, dx,
                    enzyme_const, n);
  for (int i = 0; i < n; ++i) {
    double y[n];
    for (int j = 0; j < n; ++j)
      y[j] = x[j];
    Solver t;
    t.params = s.params;
    double want = CENTRAL_DIFF((y[i] = t_, t.run(y, n)), x[i], 1e-6);
    check_close("d/dx", dx[i], want, 1e-7);
  }
  for (int k = 0; k < 3; ++k) {
    Solver t;
    t.params = s.params;
    double p0 = s.params[k];
    double want =
        CENTRAL_DIFF((t.params[k] = t_, t.run(x, n)), p0, 1e-6);
    check_close("d/dparams", ds.params[k], want, 1e-7);
  }
  return check_report();
}
