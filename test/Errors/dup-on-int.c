// enzyme_dup before an integer is an error in both modes: an integer has no
// shadow and no tangent.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -c %s -o /dev/null -DFWD 2>&1 | FileCheck %s --check-prefix=FWD
// RUN: not %clang -O2 -g -c %s -o /dev/null -DFWD 2>&1 | FileCheck %s --check-prefix=FWD
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// FWD-NOT: PLEASE submit a bug report
// FWD-NOT: Stack dump
extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double f(double x, int n) { return x * n; }
#ifndef FWD
double g(double x, int n, int dn) {
  // CHECK: dup-on-int.c:[[@LINE+1]]:10: error: tapestry: enzyme_dup needs a pointer (or, in forward mode, a floating-point value with its tangent), but parameter 2 'n' of 'f' (int) is neither; use enzyme_const
  return __enzyme_autodiff((void *)f, x, enzyme_dup, n, dn);
}
#else
double g(double x, int n, int dn) {
  // FWD: dup-on-int.c:[[@LINE+1]]:10: error: tapestry: enzyme_dup needs a pointer (or, in forward mode, a floating-point value with its tangent), but parameter 2 'n' of 'f' (int) is neither; use enzyme_const
  return __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0, enzyme_dup, n, dn);
}
#endif
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// FWD: 1 error generated.
// FWD-NOT: PLEASE submit a bug report
// FWD-NOT: Stack dump
