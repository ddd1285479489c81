// A static std::unique_ptr given a new block on every call, which keeps it
// after the call: each call releases the block the previous call (plain or
// differentiated) left, reading the old pointer only to delete it. The
// global gets a shadow (the old pointer's shadow is the one the last
// derivative stored, or null), and plain calls in between, which leave a
// block without one, must not disturb it. f(x) = sum_i exp(c_i) c_i with
// c = x, so df/dx_i = exp(x_i)(1 + x_i), checked on three points and
// between plain calls.
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
  return s;
}

static void gradient_at(double shift, const char *when) {
  double x[4] = {0.1 + shift, 0.2, -0.3 - shift, 0.5}, dx[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 4);
  for (int k = 0; k < 4; k++) {
    char what[64];
    std::snprintf(what, sizeof what, "%s df/dx[%d]", when, k);
    check_close(what, dx[k], std::exp(x[k]) * (1 + x[k]), 1e-12);
  }
  check_close("cached input", (*cache)[0], x[0], 0);
}

int main() {
  double y[3] = {1, 2, 3};
  double want = std::exp(1.0) + 2 * std::exp(2.0) + 3 * std::exp(3.0);
  check_close("plain call", f(y, 3), want, 1e-12);
  gradient_at(0, "after a plain call");
  gradient_at(0.25, "after a derivative");
  check_close("plain call between", f(y, 3), want, 1e-12);
  gradient_at(-0.5, "after another plain call");
  return check_report();
}
