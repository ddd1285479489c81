// Tapestry has no meaning yet for __attribute__((enzyme_sparse_accumulate)):
// a program that uses it is rejected with an error naming the attribute and
// the function, at the attribute's line, never compiled as if the attribute
// were absent.
// RUN: not %clang_fplugin -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang_enzyme -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);

// CHECK: sparse-accumulate-error.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __attribute__((enzyme_sparse_accumulate)) on 'acc': Enzyme's sparse accumulation is not supported by Tapestry yet; remove the attribute to get the dense derivative
__attribute__((enzyme_sparse_accumulate)) void acc(double *p, double v) {
  *p += v;
}

double f(double x) {
  double s = 0;
  acc(&s, x * x);
  return s;
}

double g(double x) { return __enzyme_autodiff((void *)f, enzyme_out, x); }
// CHECK: 1 error generated.
