// Four adjoints, but the request is declared to return a struct of three
// doubles, which the x86-64 C ABI returns through sret memory: an error that
// lists the 4 results (before the fix, the derivative's 32-byte result was
// stored into the 24-byte sret buffer, an out-of-bounds write into the
// caller's stack). The spelling of the declared type is checked by
// return-type-spelling.c.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out;
typedef struct { double a, b, c; } D3;
D3 __enzyme_autodiff(void *, ...);
double f(double x, double y, double z, double w) { return x * y * z * w; }
D3 g(double x, double y, double z, double w) {
  // CHECK: return-sret-too-small.c:[[@LINE+1]]:10: error: tapestry: the call to __enzyme_autodiff is declared to return {{.*}}{ double, double, double }, which does not match its 4 result(s) (double, double, double, double); declare it to return a struct with these members in this order
  return __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_out, y, enzyme_out, z, enzyme_out, w);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
