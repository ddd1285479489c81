// A std::vector owned by a static std::unique_ptr, assigned inside the
// differentiated function from its input and read back after a library
// call: f(x) = sum_i exp(c_i) c_i with c = x, so df/dx_i = exp(x_i)(1 + x_i).
// Was a silent wrong number (a gradient of 0; review30 m4, review31b p9):
// the stores into the global and the reads from it are in unique_ptr's
// member functions, which get the global's address, and reset reads the
// old pointer before storing the new one. The analysis now follows the
// address into the member functions (as the differentiated code inlines
// them) and lets a read that only releases the old block precede the
// store (GlobalShadows' releasesOnly): the global gets a shadow. A lazily
// built constant table stays without one
// (global-unique-ptr-constant-table.cpp); a block kept after the call:
// global-smart-pointer-kept.cpp.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

static std::unique_ptr<std::vector<double>> cache;

double f(const double *x, int n) {
  cache = std::make_unique<std::vector<double>>(x, x + n);
  std::fflush(stdout);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += std::exp((*cache)[i]) * (*cache)[i];
  cache.reset();
  return s;
}

int main() {
  double x[4] = {0.1, 0.2, -0.3, 0.5}, dx[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 4);
  for (int k = 0; k < 4; k++) {
    char what[32];
    std::snprintf(what, sizeof what, "df/dx[%d]", k);
    check_close(what, dx[k], std::exp(x[k]) * (1 + x[k]), 1e-12);
  }
  return check_report();
}
