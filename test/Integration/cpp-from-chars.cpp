// std::from_chars parsing a coefficient inside the objective, and
// std::to_chars formatting one: "no derivative is known for external
// function 'std::from_chars(...)'" at -O1 and above (probe25b R4). Both are
// inactive; the number from_chars stores has derivative 0 where it lands,
// also into a variable that held an active value before (overwrite: the
// old value's derivative must not survive). Expected: analytic.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %plain_cxx -std=c++17 -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cxx %t.bc -o %to && %to | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <charconv>
#include <cstring>

extern "C" {
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

static double parse(const char *s) {
  double v = 0;
  std::from_chars(s, s + std::strlen(s), v);
  return v;
}

// 1.5 * sin(x)
double model(double x) { return parse("1.5") * std::sin(x); }

// v holds x, then the text's number: v * x = 2.5 x.
double overwritten(double x) {
  double v = x;
  const char *s = "2.5";
  std::from_chars(s, s + 3, v);
  return v * x;
}

// The value printed into a buffer carries nothing back: x^2.
double printed(double x) {
  char buf[32];
  std::to_chars(buf, buf + sizeof buf, x);
  return x * x + (buf[0] == '-' ? 0.0 : 0.0);
}

int main() {
  double x = 0.8;
  check_close("from_chars reverse", __enzyme_autodiff((void *)model, x),
              1.5 * std::cos(x), 1e-14);
  check_close("from_chars forward", __enzyme_fwddiff((void *)model, x, 1.0),
              1.5 * std::cos(x), 1e-14);
  check_close("overwritten reverse",
              __enzyme_autodiff((void *)overwritten, x), 2.5, 1e-14);
  check_close("overwritten forward",
              __enzyme_fwddiff((void *)overwritten, x, 1.0), 2.5, 1e-14);
  check_close("to_chars reverse", __enzyme_autodiff((void *)printed, x),
              2 * x, 1e-14);
  return check_report();
}
