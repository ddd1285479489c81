// A double's bits stepped in place through an integer member of a struct
// inside a union (`v.s.bits += 1`: the next double up). At -O0 clang
// emits no TBAA, and an integer member of a struct updated in place is
// taken as a count where the type analysis only suspects a double (a
// std::list's element count in a header merged with its nodes,
// cxx-list-local-counted-iterator-O0.cpp). Here the member's bytes hold
// an active value (x * x), and integer arithmetic on them stays an error
// at every level.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
#include <stdint.h>
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);

union Bits {
  double d;
  struct {
    uint64_t bits;
  } s;
};

double next_up_squared(double x) {
  union Bits v;
  v.d = x * x;
  // CHECK: float-bits-counted-in-union-struct.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: cannot differentiate 'next_up_squared': {{.*}} is reinterpreted as a long here; derivatives cannot flow through bit manipulation
  v.s.bits += 1;
  return v.d;
}

double grad(double x) {
  return __enzyme_autodiff((void *)next_up_squared, enzyme_out, x);
}
// CHECK: 1 error generated.
