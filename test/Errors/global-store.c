// In both modes, an active value stored to a global double (which has no
// shadow) is an error at the store that names the global and says to pass
// the data through an enzyme_dup argument instead.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -c %s -o /dev/null -DFWD 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null -DFWD 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double saved;
double f(double x) {
  // CHECK: global-store.c:[[@LINE+1]]:9: error: tapestry: cannot differentiate 'f': an active value is stored to the global 'saved', which has no shadow to receive its derivative; pass the data through an enzyme_dup argument instead
  saved = x * x;
  return saved + x;
}
double g(double x) {
#ifndef FWD
  return __enzyme_autodiff((void *)f, enzyme_out, x);
#else
  return __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0);
#endif
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
