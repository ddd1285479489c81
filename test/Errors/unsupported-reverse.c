// Split mode's reverse half is not supported yet: an error at the call.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out;
double __enzyme_reverse(void *, ...);
double f(double x) { return x * x; }
double g(double x, void *tape) {
  // CHECK: unsupported-reverse.c:[[@LINE+1]]:10: error: tapestry: __enzyme_reverse is not supported yet; use __enzyme_autodiff or __enzyme_fwddiff
  return __enzyme_reverse((void *)f, enzyme_out, x, 1.0, tape);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
