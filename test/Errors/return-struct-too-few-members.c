// Three adjoints, but the request is declared to return a struct of two
// doubles: an error that lists the three results (not a silently dropped
// third adjoint, as before the fix in TapestryPass.cpp's deliverResults).
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out;
typedef struct { double dx, dy; } D2;
D2 __enzyme_autodiff(void *, ...);
double f(double x, double y, double z) { return x * y * z; }
D2 g(double x, double y, double z) {
  // CHECK: return-struct-too-few-members.c:[[@LINE+1]]:10: error: tapestry: the call to __enzyme_autodiff is declared to return struct { double, double }, which does not match its 3 result(s) (double, double, double); declare it to return a struct with these members in this order
  return __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_out, y, enzyme_out, z);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
