// A value whose type cannot become the parameter's type is an error naming
// the parameter and both types: an int literal (passed through '...' as an
// int, not converted) or a pointer for a double parameter, and a double for
// the shadow of a pointer. With -g the parameter's name and source type
// are named; with -fplugin and no -g the error is still at the call's line
// (the clang part tracks locations without emitting debug information).
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefix=INT
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefix=INT
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefix=PTR
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefix=PTR
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=3 2>&1 | FileCheck %s --check-prefix=SHADOW
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=3 2>&1 | FileCheck %s --check-prefix=SHADOW
// INT-NOT: PLEASE submit a bug report
// PTR-NOT: PLEASE submit a bug report
// SHADOW-NOT: PLEASE submit a bug report
// RUN: not %clang_fplugin -O0 -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefix=NODEBUG
// NODEBUG: wrong-value-type.c:[[@LINE+8]]:10: error: tapestry: the value passed for parameter 1 of 'f' (double) has type int, not the parameter's type (arguments after the function are passed through '...', where an integer is not converted: write 2.0, not 2)
extern int enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double f(double x) { return x * x; }
double h(double *p) { return *p * *p; }
#if CASE == 1
double g(void) {
  // INT: wrong-value-type.c:[[@LINE+1]]:10: error: tapestry: the value passed for parameter 1 'x' of 'f' (double) has type int, not the parameter's type (arguments after the function are passed through '...', where an integer is not converted: write 2.0, not 2)
  return __enzyme_autodiff((void *)f, enzyme_out, 2);
}
#elif CASE == 2
double g(double *p) {
  // PTR: wrong-value-type.c:[[@LINE+1]]:10: error: tapestry: the value passed for parameter 1 'x' of 'f' (double) has type pointer, not the parameter's type
  return __enzyme_autodiff((void *)f, enzyme_out, p);
}
#else
void g(double *p) {
  // SHADOW: wrong-value-type.c:[[@LINE+1]]:3: error: tapestry: the shadow passed for parameter 1 'p' of 'h' (double *) has type double, not the parameter's type
  __enzyme_autodiff((void *)h, enzyme_dup, p, 0.0);
}
#endif
// INT: 1 error generated.
// INT-NOT: PLEASE submit a bug report
// INT-NOT: Stack dump
// PTR: 1 error generated.
// PTR-NOT: PLEASE submit a bug report
// PTR-NOT: Stack dump
// SHADOW: 1 error generated.
// SHADOW-NOT: PLEASE submit a bug report
// SHADOW-NOT: Stack dump
