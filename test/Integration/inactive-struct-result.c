// A function declared inactive that returns a large struct by value (C
// returns it through a hidden pointer, sret): its result has derivative
// zero. That was refused as "may write floating-point data through its
// argument 1" (the hidden pointer; review23b F3), and asked of the inactive
// function itself, the target's tangents came out 1 and 3 instead of 0.
// Reverse and forward mode, through a caller and as the request's target;
// a struct overwritten by the inactive result loses the adjoint of what it
// held. Expected: analytic, with bigOf's result constant.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_out, enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef struct {
  double a, b, c, d;
} Big;

Big bigOf(double x) {
  Big r = {x, 2 * x, 3 * x, x * x};
  return r;
}
void *__enzyme_inactivefn[] = {(void *)bigOf};
Big __enzyme_fwddiff_Big(void *, ...);

/* bigOf(x).d is a constant: d/dx = 1. */
double viaCaller(double x) {
  Big b = bigOf(x);
  return b.d + x;
}

/* The constant b.a times x: d/dx = b.a = x. */
double scaled(double x) {
  Big b = bigOf(x);
  return b.a * x * x / 2;
}

/* b held x^2 in d; the inactive result overwrites it: d/dx = 3 (from 3x). */
__attribute__((noinline)) void overwrite(Big *b, double x) { *b = bigOf(x); }
double overwritten(double x) {
  Big b = {0, 0, 0, x * x};
  double kept = b.d;
  overwrite(&b, x);
  return b.d + 3 * x + 0 * kept;
}

int main(void) {
  volatile double vx = 1.5;
  double x = vx;
  check_close("via caller, reverse",
              __enzyme_autodiff((void *)viaCaller, enzyme_out, x), 1, 0);
  check_close("via caller, forward",
              __enzyme_fwddiff((void *)viaCaller, enzyme_dup, x, 1.0), 1, 0);
  check_close("scaled, reverse",
              __enzyme_autodiff((void *)scaled, enzyme_out, x), x * x, 1e-15);
  check_close("scaled, forward",
              __enzyme_fwddiff((void *)scaled, enzyme_dup, x, 1.0), x * x,
              1e-15);
  check_close("overwritten, reverse",
              __enzyme_autodiff((void *)overwritten, enzyme_out, x), 3, 0);
  check_close("overwritten, forward",
              __enzyme_fwddiff((void *)overwritten, enzyme_dup, x, 1.0), 3, 0);
  Big t = __enzyme_fwddiff_Big((void *)bigOf, enzyme_dup, x, 1.0);
  check_close("target, forward a", t.a, 0, 0);
  check_close("target, forward b", t.b, 0, 0);
  check_close("target, forward c", t.c, 0, 0);
  check_close("target, forward d", t.d, 0, 0);
  return check_report();
}
