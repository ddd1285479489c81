// A static std::unique_ptr given a new block on every call, differentiated
// or not: global-owner-kept-block.cpp with a plain call of f between two
// derivatives. Expected values are analytic.
// XFAIL: *
// Known bug (a leak of one shadow block per plain call between
// derivatives, docs/limitations.md): the plain call deletes the block the
// previous derivative stored and stores its own, so the shadow global's
// block has no owner left (the companion still names the deleted block).
// The next derivative cannot tell that shadow from one a split-mode tape
// still uses (an augmented forward before the plain call, its reverse
// after), so it does not free it: a leak rather than a use after free.
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
    if (call == 2)
      check_close("plain f between", f(y, 3),
                  std::exp(1.0) + 2 * std::exp(2.0) + 3 * std::exp(3.0),
                  1e-12);
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
