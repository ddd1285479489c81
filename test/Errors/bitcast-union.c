// Reinterpreting an active double as an integer through a union (here to
// step to the next double up) cannot carry a derivative: an error at the
// integer operation. (Flipping the sign bit alone is -x, and
// differentiated: test/Integration/sign-bits-as-math.c.) The instruction
// text in the middle is checked by bitcast-message.c.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
#include <stdint.h>
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double f(double x) {
  union {
    double d;
    uint64_t u;
  } v;
  v.d = x * x;
  // CHECK: bitcast-union.c:[[@LINE+1]]:7: error: tapestry: cannot differentiate 'f': a double is reinterpreted as a long here; derivatives cannot flow through bit manipulation
  v.u += 1;
  return v.d;
}
double g(double x) {
  return __enzyme_autodiff((void *)f, enzyme_out, x);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
