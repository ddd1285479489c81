// A function that cannot return (it always calls abort) has no derivative:
// an error at the function.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
void abort(void);
// CHECK: never-returns.c:[[@LINE+1]]:8: error: tapestry: cannot differentiate 'f': the function never returns
double f(double x) { abort(); }
double g(double x) {
  return __enzyme_autodiff((void *)f, enzyme_out, x);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
