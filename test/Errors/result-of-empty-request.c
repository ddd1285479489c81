// A request whose only derivative output is the shadow memory returns
// nothing; using its result is an error.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);
double f(double *x) { return *x * *x; }
double g(double *x, double *dx) {
  // CHECK: result-of-empty-request.c:[[@LINE+1]]:10: error: tapestry: the call to __enzyme_autodiff uses a result, but this request returns nothing
  return __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
