// A request that passes more values than the function has parameters is an
// error that says how many are left over.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double f(double x, double y) { return x * y; }
double g(double x, double y, double z) {
  // CHECK: too-many-arguments.c:[[@LINE+1]]:10: error: tapestry: too many arguments: 'f' takes 2 parameters but the call to __enzyme_autodiff passes 1 more value(s) than they need
  return __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_out, y, z);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
