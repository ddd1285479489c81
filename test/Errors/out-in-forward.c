// enzyme_out has no meaning in forward mode: an error that says to pass the
// value as enzyme_dup followed by its tangent.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out;
double __enzyme_fwddiff(void *, ...);
double f(double x) { return x * x; }
double g(double x) {
  // CHECK: out-in-forward.c:[[@LINE+1]]:10: error: tapestry: enzyme_out is not valid in forward mode (__enzyme_fwddiff); pass parameter 1 'x' of 'f' (double) as enzyme_dup followed by its tangent
  return __enzyme_fwddiff((void *)f, enzyme_out, x);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
