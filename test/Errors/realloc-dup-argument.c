// realloc of a buffer the caller passed as enzyme_dup frees the caller's
// block, and reverse mode would leave the derivative with respect to its old
// contents in the caller's shadow buffer, freed with it: an error at the
// realloc that says what to do. Forward mode has nothing to lose (the
// tangents are copied with the data) and differentiates it.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang -O0 -g -c %s -o /dev/null -DFWD 2>&1 | FileCheck %s --check-prefix=FWD --allow-empty
// RUN: %clang -O2 -g -c %s -o /dev/null -DFWD 2>&1 | FileCheck %s --check-prefix=FWD --allow-empty
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// FWD-NOT: error
#include <stdlib.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double twice(double *x, int n) {
  // CHECK: realloc-dup-argument.c:[[@LINE+1]]:15: error: tapestry: cannot differentiate 'twice': realloc of parameter 1{{( \('x'\))?}}, which the caller passed with a shadow: the derivative with respect to its old contents would be left in the caller's shadow buffer, which is freed with it; copy the data into a buffer the function allocates (malloc and memcpy) and realloc that
  double *y = realloc(x, 2 * n * sizeof *y);
  for (int i = n; i < 2 * n; i++)
    y[i] = y[i - n] * y[i - n];
  double s = 0;
  for (int i = 0; i < 2 * n; i++)
    s += y[i];
  free(y);
  return s;
}

void g(double *x, double *dx) {
#ifndef FWD
  __enzyme_autodiff((void *)twice, enzyme_dup, x, dx, enzyme_const, 3);
#else
  __enzyme_fwddiff((void *)twice, enzyme_dup, x, dx, enzyme_const, 3);
#endif
}
// CHECK: 1 error generated.
