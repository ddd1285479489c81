// A static buffer pointer the function replaces on every call (the old
// block freed, a new one filled from the input and read back after a call
// the analysis cannot see through), differentiated twice: a gradient, and
// forward over it (a Hessian-vector product). The inner derivative reads
// the old block's shadow from the shadow global and its companion (to free
// it with the block); the outer derivative must still see that read as
// only releasing the block, or the buffer gets no shadow at the outer
// depth. Was an error ("an active value is stored to memory that has no
// shadow (the value of the non-constant global 'cache')") after the
// companion globals came in, right before. f(x) = sum x_i^3: grad 3 x_i^2,
// H v = 6 x_i v_i.
// RUN: %clang -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdio.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

static double *cache;

double f(const double *x, int n) {
  double *old = cache;
  cache = (double *)malloc(n * sizeof(double));
  free(old);
  for (int i = 0; i < n; i++)
    cache[i] = x[i];
  fflush(0);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += cache[i] * cache[i] * cache[i];
  return s;
}

void grad(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
}

void hvp(const double *x, const double *v, double *dx, double *hv, int n) {
  __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, dx, hv,
                   enzyme_const, n);
}

int main(void) {
  double x[3] = {1, 2, 3}, v[3] = {1, 0, 1};
  for (int call = 0; call < 3; call++) {
    double dx[3] = {0}, dx2[3] = {0}, hv[3] = {0};
    grad(x, dx, 3);
    hvp(x, v, dx2, hv, 3);
    for (int i = 0; i < 3; i++) {
      check_close("grad", dx[i], 3 * x[i] * x[i], 1e-12);
      check_close("grad beside hvp", dx2[i], 3 * x[i] * x[i], 1e-12);
      check_close("hvp", hv[i], 6 * x[i] * v[i], 1e-12);
    }
  }
  free(cache);
  return check_report();
}
