// A std::vector owned by a static std::unique_ptr, assigned inside the
// differentiated function from its input and read back after a library
// call: f(x) = sum_i exp(c_i) c_i with c = x, so df/dx_i = exp(x_i)(1 + x_i).
// XFAIL: *
// Known bug (a silent wrong number, docs/no-silent-wrong-numbers.md, Open):
// the gradient comes out 0. The stores into the global and the reads from
// it are in unique_ptr's member functions, which get the global's address,
// so the analysis cannot show that every read follows a store in the same
// call (test/Integration/global-pointer-reloaded.c: the C shapes it can);
// the global gets no shadow and the reloaded pointer is taken for a
// constant. A setter or a singleton holding the input is refused
// (test/Errors/global-class-object-pointer.cpp), but the pointer
// unique_ptr stores comes from make_unique's fresh block, which is also
// how a lazily built constant table arrives (right numbers, and must stay
// so): telling the two apart needs to know whether the block holds
// derivatives. (unique_ptr::reset also reads the old pointer before it
// stores the new one, so "set before read" needs more than following the
// calls.)
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
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
