// __enzyme_ignore_derivatives takes one value that holds no pointer and
// returns it: a pointer (whose shadow would still be needed) or a
// declaration whose result type differs is an error at the call, naming
// the spelling that works; never a silent wrong derivative.
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefixes=CHECK,C1
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefixes=CHECK,C2
// CHECK-NOT: PLEASE submit a bug report
double __enzyme_autodiff(void *, ...);
double *__enzyme_ignore_derivatives_p(double *) __asm__(
    "__enzyme_ignore_derivatives");
float __enzyme_ignore_derivatives_d2f(double) __asm__(
    "__enzyme_ignore_derivatives.1");

double f(double *p) {
#if CASE == 1
  // C1: ignore-derivatives.c:[[@LINE+1]]:15: error: tapestry: __enzyme_ignore_derivatives(x) takes one floating-point value and returns it with no derivative; declare it with the value's type, e.g. 'double __enzyme_ignore_derivatives(double);' (pointers are not supported: mark the data enzyme_const instead)
  double *q = __enzyme_ignore_derivatives_p(p);
  return q[0] * p[0];
#else
  // C2: ignore-derivatives.c:[[@LINE+1]]:10: error: tapestry: __enzyme_ignore_derivatives(x) takes one floating-point value
  return __enzyme_ignore_derivatives_d2f(p[0]) * p[0];
#endif
}
// CHECK: 1 error generated.
