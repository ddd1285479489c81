// A struct holding a double and a pointer returned by value from a call
// that stays a call (recursion) is {double, ptr}: no derivative can be
// carried through such a value yet, so taking the double out of it where
// the result needs its derivative is an error at that line, in reverse and
// forward mode; until Dec 2026 the derivative through it was silently zero.
// A struct of a double and an int ({double, i32}) carries its derivative
// (test/Integration/calls-struct-result-kept.c).
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -c %s -o /dev/null -DFORWARD 2>&1 | FileCheck %s
// CHECK: struct-result-with-pointers.c:[[@LINE+21]]:{{[0-9]+}}: error: tapestry: cannot differentiate 'f': a struct holding both floating-point values and pointers ('struct { double, pointer }') is passed by value here, and Tapestry cannot carry a derivative through such a value yet; pass the struct by pointer, or return its floating-point members through pointer arguments
#include <math.h>
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

struct DP {
  double d;
  const double *p;
};
static struct DP h(double x, int n, const double *q) {
  if (n > 0) {
    struct DP r = h(x, n - 1, q);
    r.d *= 2;
    r.p += 1;
    return r;
  }
  return (struct DP){sin(x), q};
}
static const double tab[4] = {1, 2, 3, 4};
double f(double x) {
  struct DP r = h(3 * x, 2, tab);
  return r.d * x + *r.p;
}
#ifdef FORWARD
double df(double x) { return __enzyme_fwddiff((void *)f, x, 1.0); }
#else
double df(double x) { return __enzyme_autodiff((void *)f, enzyme_out, x); }
#endif
