// A one-shot __enzyme_autodiff whose callee stays a call (noinline, or any
// call at -O0) and declares a variable-length array inside a loop: the
// callee's derivative is split into halves, and an array allocated anew in
// each iteration cannot cross them. The error says why the callee is split
// and what to do (it said "use __enzyme_autodiff", which is what the
// program does). One array outside loops works:
// test/Integration/vla-in-kept-callee.c.
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: tapestry: cannot differentiate 'helper' where it stays a call (noinline, recursive, or any call at -O0), whose derivative is split into a forward and a reverse half: it uses a stack array of variable size {{.*}}, whose contents the reverse half needs; allocate it with malloc, or let the call be inlined (remove noinline; at -O0, compile with -O1 or above)
// CHECK-NOT: PLEASE submit a bug report
#include <math.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double helper(const double *x, int n, int rounds) {
  double s = 0;
  for (int r = 0; r < rounds; ++r) {
    double t[n];
    for (int i = 0; i < n; i++)
      t[i] = sin(x[i] * (r + 1));
    for (int i = 0; i < n; i++)
      s += t[i] * t[i];
  }
  return s;
}

double f(const double *x, int n) { return helper(x, n, 3) * x[0]; }

void grad(const double *x, double *dx) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 3);
}
