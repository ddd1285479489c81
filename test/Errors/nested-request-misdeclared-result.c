// When an inner request that an outer one differentiates is rejected (here
// its result is declared as one double for two adjoints), only that error
// is given: the outer request, meeting the entry point still called in the
// code, used to add a second error telling the user to register a
// derivative for __enzyme_autodiff itself ("no derivative is known for
// external function '__enzyme_autodiff'"). Found by a stranger program.
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
