// Truncation from C++: Enzyme's template declarations of the entry points,
// a member function called by the truncated function (truncated too),
// std::sin, and a struct initialised from a constant (copied from a
// constant global at -O0, packed in mem mode).
// RUN: %clangxx -O0 -ffp-contract=off %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 -ffp-contract=off %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 -ffp-contract=off %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 -ffp-contract=off %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include <cmath>
#include <cstdio>

template <typename fty> fty *__enzyme_truncate_op_func(fty *, int, int);
template <typename fty> fty *__enzyme_truncate_mem_func(fty *, int, int);
double __enzyme_truncate_mem_value(double, int, int);
double __enzyme_expand_mem_value(double, int, int);

struct Line {
  double a, b;
  double at(double x) const {
    double ax = a * x;
    return ax + b;
  }
};

double wave(double x) {
  Line l{0.1, 0.2};
  return std::sin(l.at(x));
}

static int failures = 0;
static void check_equal(const char *what, double got, double want) {
  bool ok = got == want;
  failures += !ok;
  std::printf("%s %s: got %.17g want %.17g\n", ok ? "PASS" : "FAIL", what,
              got, want);
}

int main() {
  volatile double vx = 2.7;
  double x = vx;
  float fx = (float)x;
  float ax = 0.1f * fx;
  double want = (double)sinf(ax + 0.2f);
  check_equal("op", __enzyme_truncate_op_func(wave, 64, 32)(x), want);
  check_equal("mem",
              __enzyme_expand_mem_value(
                  __enzyme_truncate_mem_func(wave, 64, 32)(
                      __enzyme_truncate_mem_value(x, 64, 32)),
                  64, 32),
              want);
  bool differs = __enzyme_truncate_op_func(wave, 64, 32)(x) != wave(x);
  failures += !differs;
  std::printf("%s differs from double\n", differs ? "PASS" : "FAIL");
  std::printf("%s\n", failures ? "FAILED" : "ALL PASSED");
  return failures != 0;
}
