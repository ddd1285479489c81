// A static std::unique_ptr that adopts a block the caller passes as
// enzyme_const (g: cache.reset(p)): its derivative stores p itself in the
// shadow global, as the "no derivative" marker. A plain call of g then
// deletes p and adopts another block, and a derivative of f releases that
// one. Releasing the old shadow along with it (the shadow global's pointer)
// freed p a second time (a crash in review34 of a leak fix, which was
// withdrawn): nothing may be freed twice, and the numbers stay right.
// Expected values are analytic: dg/dx0 = (*cache)[0] = 2, df/dx =
// exp(x)(1 + x).
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

static std::unique_ptr<std::vector<double>> cache;

double f(const double *x, int n) {
  cache = std::make_unique<std::vector<double>>(x, x + n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += std::exp((*cache)[i]) * (*cache)[i];
  return s;
}

// Adopts p: the owner deletes it from now on.
double g(std::vector<double> *p, const double *x) {
  cache.reset(p);
  return (*cache)[0] * x[0];
}

int main() {
  double x[3] = {0.1, 0.2, -0.3};
  double dg[3] = {0};
  __enzyme_autodiff((void *)g, enzyme_const, new std::vector<double>(3, 2.0),
                    enzyme_dup, x, dg);
  check_close("dg/dx0", dg[0], 2, 1e-12);
  check_close("plain g", g(new std::vector<double>(3, 5.0), x), 5 * x[0],
              1e-12);
  double dx[3] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 3);
  for (int k = 0; k < 3; k++)
    check_close("df/dx", dx[k], std::exp(x[k]) * (1 + x[k]), 1e-12);
  cache.reset();
  int failures = check_report();
  std::fflush(stdout);
  return failures;
}
