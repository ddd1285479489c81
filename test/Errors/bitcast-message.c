// The bit-cast error (see bitcast-union.c) describes the source, not the
// IR: no instruction quoted, no IR type, no repeat of the diagnostic's own
// location.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// CHECK: bitcast-message.c:[[@LINE+19]]:7: error: tapestry: cannot differentiate 'f':
// CHECK-NOT: !dbg
// CHECK-NOT: {{%[0-9]+}}
// CHECK-NOT: the instruction '
// CHECK-NOT: a bitcast
// CHECK-NOT: {{[^0-9a-z_]i64[^0-9a-z_]}}
// CHECK-NOT: {{bitcast-message.c:[0-9]+'}}
// CHECK: 1 error generated.
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
  v.u += 1;
  return v.d;
}
double g(double x) {
  return __enzyme_autodiff((void *)f, enzyme_out, x);
}
