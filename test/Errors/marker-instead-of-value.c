// A marker where a value (or a shadow) is expected is an error.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -c %s -o /dev/null -DSHADOW 2>&1 | FileCheck %s --check-prefix=SHADOW
// RUN: not %clang -O2 -g -c %s -o /dev/null -DSHADOW 2>&1 | FileCheck %s --check-prefix=SHADOW
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// SHADOW-NOT: PLEASE submit a bug report
// SHADOW-NOT: Stack dump
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double f(double *p, double y) { return *p * y; }
#ifndef SHADOW
double g(double *p, double *dp, double y) {
  // enzyme_dup directly followed by enzyme_const.
  // CHECK: marker-instead-of-value.c:[[@LINE+1]]:10: error: tapestry: two activity markers in a row before parameter 1 of 'f'
  return __enzyme_autodiff((void *)f, enzyme_dup, enzyme_const, p, dp, y);
}
#else
double g(double *p, double y) {
  // The shadow of p is forgotten, so a marker sits where the shadow belongs.
  // SHADOW: marker-instead-of-value.c:[[@LINE+1]]:10: error: tapestry: expected the shadow of parameter 1 'p' of 'f' (double *) but found the marker enzyme_const
  return __enzyme_autodiff((void *)f, enzyme_dup, p, enzyme_const, y);
}
#endif
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// SHADOW: 1 error generated.
// SHADOW-NOT: PLEASE submit a bug report
// SHADOW-NOT: Stack dump
