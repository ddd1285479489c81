// Three adjoints, but the request is declared to return a struct of four
// doubles (returned through sret memory): an error that lists the 3 results
// (before the fix, the fourth member was left uninitialised, e.g. 3.2e-319
// at -O2). The spelling of the declared type is checked by
// return-type-spelling.c.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out;
typedef struct { double a, b, c, d; } D4;
D4 __enzyme_autodiff(void *, ...);
double f(double x, double y, double z) { return x * y * z; }
D4 g(double x, double y, double z) {
  // CHECK: return-struct-too-many-members.c:[[@LINE+1]]:10: error: tapestry: the call to __enzyme_autodiff is declared to return {{.*}}{ double, double, double, double }, which does not match its 3 result(s) (double, double, double); declare it to return a struct with these members in this order
  return __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_out, y, enzyme_out, z);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
