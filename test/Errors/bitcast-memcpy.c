// Copying an active double into a uint64_t with memcpy, masking it (the
// sign and exponent kept: a power of two by hand) and copying it back
// cannot carry a derivative: an error at the memcpy that turns the double
// into an integer. (Masking the sign bit alone is fabs, and differentiated:
// test/Integration/sign-bits-as-math.c.)
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
#include <stdint.h>
#include <string.h>
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double f(double x) {
  double y = x * x;
  uint64_t u;
  // CHECK: bitcast-memcpy.c:[[@LINE+1]]:3: error: tapestry: cannot differentiate 'f': a double is reinterpreted as a long here; derivatives cannot flow through bit manipulation
  memcpy(&u, &y, sizeof u);
  u &= 0xfff0000000000000ull;
  double r;
  memcpy(&r, &u, sizeof r);
  return r;
}
double g(double x) {
  return __enzyme_autodiff((void *)f, enzyme_out, x);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
