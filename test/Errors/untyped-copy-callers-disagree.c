// A function differentiated on its own that copies its callers' memory
// without a typed access of its own takes the bytes' types from its
// callers; where one caller passes doubles and another floats, one
// derivative cannot serve both: an error at the copy, never a guess from
// one caller about the other.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
#include <string.h>
extern int enzyme_dup, enzyme_out;
double __enzyme_autodiff(void *, ...);

static __attribute__((noinline)) void shift(void *q, double unused) {
  // CHECK: untyped-copy-callers-disagree.c:[[@LINE+1]]:3: error: tapestry: cannot differentiate 'shift': the memory this instruction copies is accessed both as float and as double
  memmove((char *)q + 8, q, 16);
}
double fd(double *a, double x) {
  a[0] = x;
  shift(a, x);
  return a[1] * a[2];
}
float ff(float *a, float x) {
  a[0] = x;
  shift(a, x);
  return a[2] * a[3];
}
void run(double *a, double *da, float *b, float *db) {
  __enzyme_autodiff((void *)fd, enzyme_dup, a, da, enzyme_out, 1.0);
  __enzyme_autodiff((void *)ff, enzyme_dup, b, db, enzyme_out, 1.0f);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
