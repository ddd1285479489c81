// A double copied into a uint64_t with memcpy on two paths and copied out
// after they merge: the integer the copy stores is chosen among two loads
// (a phi). Where no write on the way may change the loaded memory, the
// choice is made among the addresses (test/Integration/integer-copy-
// chosen-on-paths.c); where the function or its callers read or hold the
// bytes as doubles, the choice is made among double loads of the same
// bytes (test/Integration/integer-copy-chosen-read-as-double.c). Here each
// path also writes a global double, which may be a[0] or a[1], so the
// choice stays, and nothing says the bytes are doubles: it is not a copy
// the derivative follows. The gradient was 0 with no error, at every -O
// level (d/da[0] is 1 here); now an error at the copy that says what to do.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
#include <stdint.h>
#include <string.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double last; // the last value picked, for the caller
void pick(double *a, double *out, int c) {
  uint64_t t;
  if (c) {
    memcpy(&t, a, sizeof t);
    last = 0.5;
  } else {
    memcpy(&t, a + 1, sizeof t);
    last = 1.5;
  }
  // CHECK: integer-copy-chosen-on-paths.c:[[@LINE+1]]:3: error: tapestry: cannot differentiate 'pick': this store copies memory that may hold floating-point data as an integer ('long') chosen among values read on different paths; copy it as double or float, or use memcpy on each path
  memcpy(out, &t, sizeof t);
}
void grad(double *a, double *da, double *out, double *dout) {
  __enzyme_autodiff((void *)pick, enzyme_dup, a, da, enzyme_dup, out, dout,
                    enzyme_const, 1);
}
// CHECK: 1 error generated.
