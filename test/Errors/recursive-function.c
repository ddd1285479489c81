// Recursion is not supported yet: an error at the recursive call, for direct
// and for mutual recursion.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -c %s -o /dev/null -DMUTUAL 2>&1 | FileCheck %s --check-prefix=MUTUAL
// RUN: not %clang -O2 -g -c %s -o /dev/null -DMUTUAL 2>&1 | FileCheck %s --check-prefix=MUTUAL
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// MUTUAL-NOT: PLEASE submit a bug report
// MUTUAL-NOT: Stack dump
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
#ifndef MUTUAL
double pw(double x, int n) {
  if (n == 0)
    return 1.0;
  // CHECK: recursive-function.c:[[@LINE+1]]:14: error: tapestry: cannot differentiate 'pw': the call to 'pw' is recursive; recursive calls are not supported yet
  return x * pw(x, n - 1);
}
#else
double h(double x, int n);
double pw(double x, int n) {
  if (n <= 0)
    return x;
  // MUTUAL: recursive-function.c:[[@LINE+1]]:14: error: tapestry: cannot differentiate 'pw': the call to 'h' is recursive; recursive calls are not supported yet
  return x * h(x, n - 1);
}
double h(double x, int n) { return n <= 0 ? x : 2 * pw(x, n - 1); }
#endif
double g(double x, int n) {
  return __enzyme_autodiff((void *)pw, enzyme_out, x, n);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// MUTUAL: 1 error generated.
// MUTUAL-NOT: PLEASE submit a bug report
// MUTUAL-NOT: Stack dump
