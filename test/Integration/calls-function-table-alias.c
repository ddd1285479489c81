// A constant table of functions holding an alias of a function defined
// here (weak, as a library's default implementation, and strong): which
// function the alias names may be decided at link time, so the table's
// entries do not say every function a call through it can reach, and the
// call is dispatched over every function of its type whose address
// escapes, with the fallback. Found in review35 of the dispatch without a
// fallback: the alias was skipped, the table taken as holding only sq, and
// sq called for every index (d = 2x instead of 3x^2, no error). Expected
// values are analytic; reverse and forward, -O0..-O3.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double sq(double x) { return x * x; }
double cube(double x) { return x * x * x; }
double quart(double x) { return x * x * x * x; }
double cube_alias(double) __attribute__((weak, alias("cube")));
double quart_alias(double) __attribute__((alias("quart")));

static double (*const table[3])(double) = {sq, cube_alias, quart_alias};

__attribute__((noinline)) double apply(double x, int k) {
  return table[k](x);
}

int main(void) {
  for (int i = 0; i < 3; i++) {
    double x = 0.6 + 0.55 * i;
    double want[3] = {2 * x, 3 * x * x, 4 * x * x * x};
    for (int k = 0; k < 3; k++) {
      check_close("reverse",
                  __enzyme_autodiff((void *)apply, x, enzyme_const, k),
                  want[k], 1e-12);
      check_close("forward",
                  __enzyme_fwddiff((void *)apply, x, 1.0, enzyme_const, k),
                  want[k], 1e-12);
    }
  }
  return check_report();
}
