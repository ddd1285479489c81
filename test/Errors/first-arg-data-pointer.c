// A request whose first argument is a data pointer, not a function, is an
// error at the request's line that names what was passed.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double table[4];
double g(double x) {
  // CHECK: first-arg-data-pointer.c:[[@LINE+1]]:10: error: tapestry: the first argument of __enzyme_autodiff must be a function, e.g. (void *)f; got the {{(constant )?}}data object 'table'
  return __enzyme_autodiff((void *)table, enzyme_out, x);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
