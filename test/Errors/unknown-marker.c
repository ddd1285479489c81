// A global named enzyme_* that is not a known marker is an error naming it.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_foo;
double __enzyme_autodiff(void *, ...);
double f(double x) { return x * x; }
double g(double x) {
  // CHECK: unknown-marker.c:[[@LINE+1]]:10: error: tapestry: unknown marker 'enzyme_foo' in the call to __enzyme_autodiff
  return __enzyme_autodiff((void *)f, enzyme_foo, x);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
