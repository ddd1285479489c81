// Three enzyme_out adjoints cannot come back through a request declared to
// return one double: an error that lists the results and says to declare a
// struct.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double f(double x, double y, double z) { return x * y * z; }
double g(double x, double y, double z) {
  // CHECK: return-type-too-small.c:[[@LINE+1]]:10: error: tapestry: the call to __enzyme_autodiff is declared to return double, which does not match its 3 result(s) (double, double, double); declare it to return a struct with these members in this order
  return __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_out, y, enzyme_out, z);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
