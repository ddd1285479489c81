// A static std::unique_ptr given a new block on every differentiated call,
// which keeps it after the call (test/Integration/global-smart-pointer-
// kept.cpp: right numbers). Each call releases the old block, reading the
// pointer only to delete it: its shadow is the shadow block the previous
// derivative left in the shadow global, which the release frees, because
// the global's companion records that this derivative stored this very
// block (GlobalShadows::companionOf). Was one shadow leaked per
// differentiated call after the first. A plain call of f before the
// derivatives stores a block with no shadow: the first derivative releases
// it without a shadow. (A plain call between two derivatives:
// global-owner-replaced-by-plain-call.cpp.) Expected values are analytic.
// REQUIRES: lsan
// RUN: %clang --driver-mode=g++ -std=c++17 -fsanitize=address -fno-omit-frame-pointer -g -O0 %s %tapestry_rt -o %t0 && %lsan_run %t0 2>&1 | FileCheck %s
// RUN: %clang --driver-mode=g++ -std=c++17 -fsanitize=address -fno-omit-frame-pointer -g -O2 %s %tapestry_rt -o %t2 && %lsan_run %t2 2>&1 | FileCheck %s
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
// CHECK: ALL PASSED: 0 failure(s)
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
#include "../Integration/Inputs/check.h"
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

static std::unique_ptr<std::vector<double>> cache;

double f(const double *x, int n) {
  cache = std::make_unique<std::vector<double>>(x, x + n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += std::exp((*cache)[i]) * (*cache)[i];
  return s;
}

int main() {
  double y[3] = {1, 2, 3};
  check_close("plain f", f(y, 3), std::exp(1.0) + 2 * std::exp(2.0) +
                                      3 * std::exp(3.0), 1e-12);
  for (int call = 0; call < 4; call++) {
    double x[3] = {0.1 * call, 0.2, -0.3}, dx[3] = {0};
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 3);
    for (int k = 0; k < 3; k++)
      check_close("df/dx", dx[k], std::exp(x[k]) * (1 + x[k]), 1e-12);
    // Forward mode releases the old blocks the same way.
    double t[3] = {0, 1, 0};
    check_close("forward df/dx1",
                __enzyme_fwddiff((void *)f, enzyme_dup, x, t, enzyme_const, 3),
                std::exp(x[1]) * (1 + x[1]), 1e-12);
  }
  cache.reset();
  int failures = check_report();
  std::fflush(stdout);
  return failures;
}
