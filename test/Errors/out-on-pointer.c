// enzyme_out before a pointer (or an integer) is an error: only
// floating-point values can be active.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -c %s -o /dev/null -DINT 2>&1 | FileCheck %s --check-prefix=INT
// RUN: not %clang -O2 -g -c %s -o /dev/null -DINT 2>&1 | FileCheck %s --check-prefix=INT
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// INT-NOT: PLEASE submit a bug report
// INT-NOT: Stack dump
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
#ifndef INT
double f(double *p) { return *p * *p; }
double g(double *p) {
  // CHECK: out-on-pointer.c:[[@LINE+1]]:10: error: tapestry: enzyme_out marks an active floating-point value, but parameter 1 'p' of 'f' (double *) is not one; use enzyme_dup with a shadow for pointers or enzyme_const
  return __enzyme_autodiff((void *)f, enzyme_out, p);
}
#else
double f(double x, int n) { return x * n; }
double g(double x, int n) {
  // INT: out-on-pointer.c:[[@LINE+1]]:10: error: tapestry: enzyme_out marks an active floating-point value, but parameter 2 'n' of 'f' (int) is not one; use enzyme_dup with a shadow for pointers or enzyme_const
  return __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_out, n);
}
#endif
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// INT: 1 error generated.
// INT-NOT: PLEASE submit a bug report
// INT-NOT: Stack dump
