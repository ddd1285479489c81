// The adjoints are (double, float) because y is a float, but the request is
// declared to return struct { double dx, dy; }: an error that shows both
// shapes (before the fix in deliverResults, dy silently received the float
// adjoint's bytes read as a double, e.g. 6.9e-310 instead of 2).
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out;
typedef struct { double dx, dy; } D2;
D2 __enzyme_autodiff(void *, ...);
double f(double x, float y) { return x * y; }
D2 g(double x, float y) {
  // CHECK: return-member-type.c:[[@LINE+1]]:10: error: tapestry: the call to __enzyme_autodiff is declared to return struct { double, double }, which does not match its 2 result(s) (double, float); declare it to return a struct with these members in this order
  return __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_out, y);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
