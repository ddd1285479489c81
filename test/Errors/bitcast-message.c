// XFAIL: *
// The bit-cast error (see bitcast-union.c) no longer quotes the LLVM
// instruction with its value names and metadata, but it still describes the
// IR, not the C source, and repeats the location of the diagnostic:
//   bitcast-message.c:38:7: error: tapestry: cannot differentiate 'f': the
//   instruction 'a bitcast from double to i64 at .../bitcast-message.c:38'
//   reinterprets an active floating-point value; ...
// The source has a union; "instruction", "bitcast" and "i64" are not what
// the user wrote, and the quoted text is a description, not code.
// Expected: a C-level description with no IR vocabulary, e.g.
//   cannot differentiate 'f': a double is reinterpreted as a 64-bit integer
//   here; derivatives cannot flow through bit manipulation
// (when this is fixed, bitcast-union.c's "the instruction '...'" must follow).
// Bug: tools/bugs/errors-ir-in-messages.c
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
  v.u ^= 0x8000000000000000ull;
  return v.d;
}
double g(double x) {
  return __enzyme_autodiff((void *)f, enzyme_out, x);
}
