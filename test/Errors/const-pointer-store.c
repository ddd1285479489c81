// In both modes, an active value stored into memory reached through an
// enzyme_const pointer and read back (here at an index only known at run
// time, so the read cannot be resolved to the store) has nowhere to keep its
// adjoint (or tangent): an error at the store that names the parameter (by
// position) and says to pass it as enzyme_dup.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -c %s -o /dev/null -DFWD 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null -DFWD 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out, enzyme_const, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double f(double x, double *tmp, int k) {
  // CHECK: const-pointer-store.c:[[@LINE+1]]:10: error: tapestry: cannot differentiate 'f': an active value is stored through parameter 2{{( \('[a-z]+'\))?}}, which is enzyme_const; pass it as enzyme_dup with a shadow
  tmp[0] = x * x;
  return tmp[k] * 3.0;
}
double g(double x, double *tmp, int k) {
#ifndef FWD
  return __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_const, tmp,
                           enzyme_const, k);
#else
  return __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0, enzyme_const, tmp,
                          enzyme_const, k);
#endif
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
