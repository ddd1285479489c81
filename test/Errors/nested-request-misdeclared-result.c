// Known bug (an unclear error): when an inner request that an outer one
// differentiates is rejected (here its result is declared as one double for
// two adjoints), the outer request adds a second error telling the user to
// register a derivative for __enzyme_autodiff itself:
//   error: tapestry: cannot differentiate 'd': no derivative is known for
//   external function '__enzyme_autodiff': give its body, register one
//   with 'void *__enzyme_register_gradient___enzyme_autodiff[3] = ...'
// Only the first error, at the inner request, should be given.
// XFAIL: *
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double e(double a, double c) { return a * a * c; }
double d(double a, double c) {
  // CHECK: nested-request-misdeclared-result.c:[[@LINE+1]]:10: error: tapestry: the call to __enzyme_autodiff is declared to return double, which does not match its 2 result(s) (double, double); declare it to return a struct with these members in this order
  return __enzyme_autodiff((void *)e, a, c);
}
double dd(double a) { return __enzyme_fwddiff((void *)d, a, 1.0, 2.0, 0.0); }
// CHECK-NOT: no derivative is known for external function '__enzyme_autodiff'
// CHECK: 1 error generated.
