// A variadic function cannot be differentiated: an error naming it.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double f(double x, ...) { return x * x; }
double g(double x) {
  // CHECK: variadic-function.c:[[@LINE+1]]:10: error: tapestry: 'f' is variadic; variadic functions cannot be differentiated
  return __enzyme_autodiff((void *)f, enzyme_out, x);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
