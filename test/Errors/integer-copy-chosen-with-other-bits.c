// A double's bits copied into a uint64_t on one path, an integer the
// caller gives on the other, copied out after they merge: the stored
// integer is a choice between a load and a value that is not one. The
// load moves bytes (it is not a statement that the memory holds integers),
// so the choice may move floating-point data, and it is not a copy the
// derivative follows: an error, where the gradient was 0 (d/da[0] is 1 on
// the first path) with no error (review34).
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
#include <stdint.h>
#include <string.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void pick(double *a, double *out, int c, uint64_t fallback) {
  uint64_t t;
  if (c)
    memcpy(&t, a, sizeof t);
  else
    t = fallback;
  // CHECK: integer-copy-chosen-with-other-bits.c:[[@LINE+1]]:3: error: tapestry: cannot differentiate 'pick': this store copies memory that may hold floating-point data as an integer ('long') chosen among values read on different paths
  memcpy(out, &t, sizeof t);
}
void grad(double *a, double *da, double *out, double *dout, uint64_t bits) {
  __enzyme_autodiff((void *)pick, enzyme_dup, a, da, enzyme_dup, out, dout,
                    enzyme_const, 1, enzyme_const, bits);
}
// CHECK: 1 error generated.
