// A tree of calls: each of 8 levels (separate non-inlined functions) calls
// the next twice, with x and x/2, down to a leaf, so the leaf is reached by
// 256 paths; reverse and forward mode against the closed form
// root(x) = sum_j C(8, j) leaf(x / 2^j). Also one callee reached with
// different activities (an active and a constant argument; a duplicated and
// a constant pointer), i.e. two distinct requests for the same function.
// (Compile time on deeper trees: tools/bugs/calls-inlining-blowup.c.)
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) double leaf(double x) { return sin(x) * exp(0.1 * x); }
static double dleaf(double x) {
  return (cos(x) + 0.1 * sin(x)) * exp(0.1 * x);
}
#define LEVEL(k, next)                                                        \
  __attribute__((noinline)) double k(double x) {                              \
    return next(x) + next(0.5 * x);                                           \
  }
LEVEL(t8, leaf)
LEVEL(t7, t8)
LEVEL(t6, t7)
LEVEL(t5, t6)
LEVEL(t4, t5)
LEVEL(t3, t4)
LEVEL(t2, t3)
LEVEL(t1, t2)
#define DEPTH 8

/* One callee, two activities: w * x with (x active, w const) and with
   (x const, w active) in the same function; and a pointer callee read
   through an active and a constant array. */
__attribute__((noinline)) double mulw(double x, double w) { return w * sin(x); }
double two_requests(double x, double w) {
  return mulw(x, 2.0) + mulw(1.0, w) * x;
}
__attribute__((noinline)) double dot3(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static const double K3[3] = {1.0, -2.0, 0.5};
double mixed_ptrs(const double *a) { return dot3(a, K3) * dot3(a, a); }

int main(void) {
  double x = 0.9;
  double want = 0, c = 1;
  for (int j = 0; j <= DEPTH; j++) {
    want += c * dleaf(x / ldexp(1, j)) / ldexp(1, j);
    c = c * (DEPTH - j) / (j + 1);
  }
  check_close("reverse call tree",
              __enzyme_autodiff((void *)t1, enzyme_out, x), want, 1e-12);
  check_close("forward call tree",
              __enzyme_fwddiff((void *)t1, enzyme_dup, x, 1.0), want, 1e-12);

  double w = 1.7;
  /* f = 2 sin x + w sin(1) x */
  check_close("reverse one callee, two activities, d/dx",
              __enzyme_autodiff((void *)two_requests, enzyme_out, x,
                                enzyme_const, w),
              2 * cos(x) + w * sin(1.0), 1e-13);
  check_close("reverse one callee, two activities, d/dw",
              __enzyme_autodiff((void *)two_requests, enzyme_const, x,
                                enzyme_out, w),
              sin(1.0) * x, 1e-13);
  check_close("forward one callee, two activities",
              __enzyme_fwddiff((void *)two_requests, enzyme_dup, x, 1.0,
                               enzyme_dup, w, 2.0),
              2 * cos(x) + w * sin(1.0) + 2.0 * sin(1.0) * x, 1e-13);

  double a[3] = {0.3, -0.4, 1.2}, da[3] = {0};
  __enzyme_autodiff((void *)mixed_ptrs, enzyme_dup, a, da);
  double p = a[0] * K3[0] + a[1] * K3[1] + a[2] * K3[2];
  double q = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
  for (int i = 0; i < 3; i++)
    check_close("reverse pointer callee, dup and const arrays", da[i],
                K3[i] * q + p * 2 * a[i], 1e-13);
  double ta[3] = {0, 1, 0};
  check_close("forward pointer callee, dup and const arrays",
              __enzyme_fwddiff((void *)mixed_ptrs, enzyme_dup, a, ta),
              K3[1] * q + p * 2 * a[1], 1e-13);
  return check_report();
}
