// __enzyme_batch of a function taking a struct by value: the ABI splits the
// struct into several parameters, and taking lanes per parameter would mix
// the structs' members (lane 0 got s0.a and s1.a: a wrong value with no
// error). A clear error until such arguments are supported.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O0 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NODEBUG
// CHECK: batch-struct-by-value.c:[[@LINE+10]]:{{[0-9]+}}: error: tapestry: struct S 's', a parameter of 'f', is a struct passed by value, which __enzyme_batch does not take yet; pass a pointer to it instead
// NODEBUG: error: tapestry: struct S, a parameter of 'f', is a struct passed by value, which __enzyme_batch does not take yet
// CHECK-NOT: PLEASE submit a bug report
extern int enzyme_width;
typedef struct { double a, b; } S;
typedef struct { double r[2]; } R2;
R2 __enzyme_batch(void *, ...);
double f(S s) { return s.a - 10 * s.b; }

R2 g(S s0, S s1) {
  return __enzyme_batch((void *)f, enzyme_width, 2, s0, s1);
}
