// Two doubles' bits compared as uint64_t and copied out, one of them
// changed on the way (the next double up, t1 + 1): what is stored is not
// one of the loaded values, so there is no choice among the doubles to
// store, and the caller's doubles say the bytes carry derivatives. Was a
// gradient of 0 with no error at every -O level; now an error at the copy.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
#include <stdint.h>
#include <string.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void larger_or_next(const double *a, double *out) {
  uint64_t t0, t1;
  memcpy(&t0, a, sizeof t0);
  memcpy(&t1, a + 1, sizeof t1);
  uint64_t t = t0 > t1 ? t0 : t1 + 1;
  // CHECK: integer-bits-compared-then-changed.c:[[@LINE+1]]:3: error: tapestry: cannot differentiate 'larger_or_next': this store copies memory that may hold floating-point data as an integer ('long') chosen among values read on different paths; copy it as double or float, or use memcpy on each path
  memcpy(out, &t, sizeof t);
}
void grad(double *da, double *dout) {
  double a[2] = {2.5, 1.5}, out;
  __enzyme_autodiff((void *)larger_or_next, enzyme_dup, a, da, enzyme_dup,
                    &out, dout);
}
// CHECK: 1 error generated.
