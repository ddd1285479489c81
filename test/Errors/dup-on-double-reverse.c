// In reverse mode a double is passed by value and cannot have a shadow:
// enzyme_dup (or enzyme_dupnoneed) before it is an error that suggests
// enzyme_out.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -c %s -o /dev/null -DNONEED 2>&1 | FileCheck %s --check-prefix=NONEED
// RUN: not %clang -O2 -g -c %s -o /dev/null -DNONEED 2>&1 | FileCheck %s --check-prefix=NONEED
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// NONEED-NOT: PLEASE submit a bug report
// NONEED-NOT: Stack dump
extern int enzyme_dup, enzyme_dupnoneed;
double __enzyme_autodiff(void *, ...);
double f(double x) { return x * x; }
#ifndef NONEED
double g(double x, double dx) {
  // CHECK: dup-on-double-reverse.c:[[@LINE+1]]:10: error: tapestry: enzyme_dup needs a pointer (or, in forward mode, a floating-point value with its tangent), but parameter 1 'x' of 'f' (double) is neither; use enzyme_out
  return __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
}
#else
double g(double x, double dx) {
  // NONEED: dup-on-double-reverse.c:[[@LINE+1]]:10: error: tapestry: enzyme_dupnoneed needs a pointer (or, in forward mode, a floating-point value with its tangent), but parameter 1 'x' of 'f' (double) is neither; use enzyme_out
  return __enzyme_autodiff((void *)f, enzyme_dupnoneed, x, dx);
}
#endif
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// NONEED: 1 error generated.
// NONEED-NOT: PLEASE submit a bug report
// NONEED-NOT: Stack dump
