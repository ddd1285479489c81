// A value that depends on an active input, stored into enzyme_const memory
// and read back later, would lose its derivative: an error, in reverse and
// forward mode, whether it is read back at a run-time index, after a loop or
// in a helper. (Reduced from fuzzer findings: these once compiled and
// returned a zero derivative.) Storing into const memory that is never read
// again is allowed (Enzyme's "constant output"), and so is a read that
// resolves to the store (the value then flows directly).
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang -O0 -DWRITE_ONLY %s -o %t && %t | FileCheck %s --check-prefix=OK
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// OK: write-only const output: d/dx = 2
// OK: resolved read: d/dx = 12
extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#ifndef WRITE_ONLY
static double at(const double *q, int k) { return q[k]; }

double direct(double x, double *a, int k) {
  // CHECK-DAG: const-memory-read-back.c:[[@LINE+1]]:8: error: tapestry: cannot differentiate 'direct': an active value is stored through parameter 2{{( \('[a-z]+'\))?}}, which is enzyme_const; pass it as enzyme_dup with a shadow
  a[1] = x;
  return at(a, k);
}

double after_loop(double x, double *a, int n) {
  // CHECK-DAG: const-memory-read-back.c:[[@LINE+1]]:8: error: tapestry: cannot differentiate 'after_loop': an active value is stored through parameter 2{{( \('[a-z]+'\))?}}, which is enzyme_const; pass it as enzyme_dup with a shadow
  a[0] = x * x;
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

double forward(double x, double *a, int k) {
  // CHECK-DAG: const-memory-read-back.c:[[@LINE+1]]:8: error: tapestry: cannot differentiate 'forward': an active value is stored through parameter 2{{( \('[a-z]+'\))?}}, which is enzyme_const; pass it as enzyme_dup with a shadow
  a[3] = x;
  return a[k] * 2;
}

double calls(double *a) {
  return __enzyme_autodiff((void *)direct, enzyme_out, 1.0, enzyme_const, a,
                           enzyme_const, 1) +
         __enzyme_autodiff((void *)after_loop, enzyme_out, 1.0, enzyme_const,
                           a, enzyme_const, 4) +
         __enzyme_fwddiff((void *)forward, enzyme_dup, 1.0, 1.0, enzyme_const,
                          a, enzyme_const, 3);
}
// CHECK: 3 errors generated.
#else
#include <stdio.h>
double logged(double x, double *log) {
  log[0] = x; // a record the caller may look at, never read here
  return x * x;
}
double resolved(double x, double *tmp) {
  tmp[0] = x * x; // read back right here: the value flows directly
  return tmp[0] * 3.0;
}
int main(void) {
  double log[1], tmp[1];
  printf("write-only const output: d/dx = %g\n",
         __enzyme_autodiff((void *)logged, enzyme_out, 1.0, enzyme_const, log));
  printf("resolved read: d/dx = %g\n",
         __enzyme_autodiff((void *)resolved, enzyme_out, 2.0, enzyme_const,
                           tmp));
  return 0;
}
#endif
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
