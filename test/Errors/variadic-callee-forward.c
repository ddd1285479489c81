// Forward mode over a call passing active values through `...` to a
// function that reads them with va_arg (probe39a): the clear error at the
// call, and no second "internal error: ... invalid IR" from a derivative
// of the variadic callee built anyway (va_start in a function that is not
// variadic).
// RUN: not %clang -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: tapestry: cannot differentiate 'f': 'wsum' takes a variable number of arguments (...) and is called with active values
// CHECK-NOT: internal error
// CHECK: 1 error generated
#include <stdarg.h>
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup;

static double wsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += va_arg(ap, double);
  va_end(ap);
  return s;
}

double f(double x) { return wsum(2, x, x * x); }

double df(double x) { return __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0); }
