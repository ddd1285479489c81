// Enzyme's __enzyme_iter example to the fourth derivative: four nested
// __enzyme_autodiff of a Taylor series of sin truncated after
// __enzyme_iter(12, 1) terms must give the same truncated series back.
// This used to abort ("corrupted double-linked list"): the third-level
// request's call site released (tapestry.freed.release) the shadow of a
// tape block that the fourth-level derivative had listed and its reverse
// sweep still wrote. Each depth of nesting now has its own list of freed
// shadows (Synthesis/FreedShadows.h).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdint.h>

uint64_t __enzyme_iter(uint64_t, uint64_t);
double __enzyme_autodiff(void *, double);

__attribute__((noinline)) uint64_t factorial(uint64_t x) {
  if (x == 0)
    return 1;
  return x * factorial(x - 1);
}

double my_sin2(double x) {
  double result = 0;
  uint64_t N = __enzyme_iter(12, 1);
  for (uint64_t i = 0; i <= N; i++) {
    if (i % 2 == 0)
      continue;
    result += pow(x, i) / factorial(i) * (i % 4 == 1 ? 1 : -1);
  }
  return result;
}

double d_mysin2(double x) { return __enzyme_autodiff((void *)my_sin2, x); }
double dd_mysin2(double x) { return __enzyme_autodiff((void *)d_mysin2, x); }
double ddd_mysin2(double x) {
  return __enzyme_autodiff((void *)dd_mysin2, x);
}
double dddd_mysin2(double x) {
  return __enzyme_autodiff((void *)ddd_mysin2, x);
}

/* The odd terms of sin's series up to x^n. */
static double sin_poly(double x, int n) {
  double s = 0;
  for (int i = 1; i <= n; i += 2)
    s += (i % 4 == 1 ? 1 : -1) * pow(x, i) / tgamma(i + 1);
  return s;
}

static volatile double in = 1.23;

int main(void) {
  double x = in;
  /* N = 16: terms up to x^15, fourth derivative up to x^11. */
  check_close("dddd my_sin2", dddd_mysin2(x), sin_poly(x, 11), 1e-12);
  check_close("dddd my_sin2 ~ sin", dddd_mysin2(x), sin(x), 1e-8);
  return check_report();
}
