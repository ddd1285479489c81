// A request that ends before every parameter has its value (or, after
// enzyme_dup, its shadow) is an error naming the parameter.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -c %s -o /dev/null -DSHADOW 2>&1 | FileCheck %s --check-prefix=SHADOW
// RUN: not %clang -O2 -g -c %s -o /dev/null -DSHADOW 2>&1 | FileCheck %s --check-prefix=SHADOW
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// SHADOW-NOT: PLEASE submit a bug report
// SHADOW-NOT: Stack dump
extern int enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
#ifndef SHADOW
double f(double x, double y) { return x * y; }
double g(double x) {
  // CHECK: too-few-arguments.c:[[@LINE+1]]:10: error: tapestry: too few arguments: 'f' takes 2 parameters but the call to __enzyme_autodiff ends before the value of parameter 2
  return __enzyme_autodiff((void *)f, enzyme_out, x);
}
#else
double h(double *p) { return *p * *p; }
double g(double *p) {
  // SHADOW: too-few-arguments.c:[[@LINE+1]]:10: error: tapestry: too few arguments: enzyme_dup on parameter 1 'p' of 'h' (double *) must be followed by the value and its shadow
  return __enzyme_autodiff((void *)h, enzyme_dup, p);
}
#endif
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// SHADOW: 1 error generated.
// SHADOW-NOT: PLEASE submit a bug report
// SHADOW-NOT: Stack dump
