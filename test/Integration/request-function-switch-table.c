// A switch whose cases make the same request with different functions:
// clang -O2 turns it into one call whose function is loaded from a
// constant lookup table (@switch.table.grad), and the opt flow (and -flto)
// refused it as "the first argument of __enzyme_autodiff must be a
// function" (probe25b R3). The call is split again, one request per
// function of the table, chosen by comparing the pointer. Expected:
// analytic.
// RUN: %plain_cc -O2 -S -emit-llvm %s -o %t.ll
// RUN: grep -q switch.table %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cc %t.bc -lm -o %to && %to | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

double square(double x) { return x * x; }
double wave(double x) { return sin(x); }
double growth(double x) { return exp(0.5 * x); }
double cube(double x) { return x * x * x; }

__attribute__((noinline)) double gradient(int k, double x) {
  switch (k) {
  case 0:
    return __enzyme_autodiff((void *)square, x);
  case 1:
    return __enzyme_autodiff((void *)wave, x);
  case 2:
    return __enzyme_autodiff((void *)growth, x);
  default:
    return __enzyme_autodiff((void *)cube, x);
  }
}

int main(void) {
  double x = 0.7;
  check_close("square", gradient(0, x), 2 * x, 1e-15);
  check_close("wave", gradient(1, x), cos(x), 1e-15);
  check_close("growth", gradient(2, x), 0.5 * exp(0.5 * x), 1e-15);
  check_close("cube", gradient(3, x), 3 * x * x, 1e-15);
  return check_report();
}
