// Found by the all-features fuzz campaign on 4 Dec 2026 (seed 5802,
// features all,vectorize,realloc,sort,constptr,fnptr,byval,tape,batch; IR
// from clang -O3 -march=native -ffast-math), rejected in forward and reverse
// mode with "this store copies memory that may hold floating-point data as
// an integer; copy it as double or float, or use memcpy". memcpy(a + 9, c,
// 8) of one element of a malloc'd array of doubles becomes `load i64` and
// `store i64`; the SLP vectoriser then reuses that i64 as c[0] in the sum
// that follows (insertelement into <8 x i64>, bitcast to <8 x double>), so
// the loaded integer is both stored and used as a double. Preparation now
// builds that vector as <8 x double> from a load of the double, and the
// integer load only copies bytes.
// Expected values are analytic: erf(j/8) < 0.5 for j <= 3, so c = {a7^2,
// a7 a9, a7 a1, a7 a3, a7, a9, a1, a3, a5, a7} + y and f = 0.375 + x S with
// S = sum c: d/dx = S, d/dy = 10 x, d/da1 = d/da3 = d/da9 = x (a7 + 1),
// d/da5 = x, d/da7 = x (2 a7 + a9 + a1 + a3 + 2), 0 for the even elements;
// the memcpy leaves a[9] = a7^2 + y.
// RUN: %plain_cc -O3 -ffast-math -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.d.bc
// RUN: %plain_cc -O0 %t.d.bc -lm -o %t && %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
typedef struct {
  double dx, dy;
} Grad;
Grad __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double f(double *a, double x, double y) {
  double *c = (double *)malloc(10 * sizeof(double));
  for (int j = 0; j < 10; j++)
    c[j] = (erf(j * 0.125) < 0.5 ? a[7] * a[(2 * j + 7) % 10]
                                 : a[(2 * j + 9) % 10]) +
           y;
  memcpy(a + 9, c, sizeof *a);
  double r = 0.375;
  for (int v = 0; v < 10; v++)
    r += x * c[v];
  free(c);
  return r;
}

static void init(double *a, double *da) {
  for (int i = 0; i < 10; i++) {
    a[i] = 0.25 * i - 1;
    da[i] = 0;
  }
}

int main(void) {
  double a[10], da[10], x = 0.5, y = 0.25;
  init(a, da);
  double a1 = a[1], a3 = a[3], a5 = a[5], a7 = a[7], a9 = a[9];
  double s = a7 * a7 + a7 * (a9 + a1 + a3) + 2 * a7 + a9 + a1 + a3 + a5 +
             10 * y;
  double want[10] = {0};
  want[1] = want[3] = want[9] = x * (a7 + 1);
  want[5] = x;
  want[7] = x * (2 * a7 + a9 + a1 + a3 + 2);
  Grad g = __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_out, x,
                             enzyme_out, y);
  check_close("rev d/dx", g.dx, s, 1e-14);
  check_close("rev d/dy", g.dy, 10 * x, 1e-14);
  for (int i = 0; i < 10; i++)
    check_close("rev d/da", da[i], want[i], 1e-14);
  check_close("a[9] = c[0] afterwards", a[9], a7 * a7 + y, 1e-15);
  for (int i = 0; i < 10; i++) {
    init(a, da);
    da[i] = 1;
    check_close("fwd d/da",
                __enzyme_fwddiff((void *)f, enzyme_dup, a, da, enzyme_const, x,
                                 enzyme_const, y),
                want[i], 1e-14);
  }
  init(a, da);
  check_close("fwd d/dx",
              __enzyme_fwddiff((void *)f, enzyme_dup, a, da, enzyme_dup, x,
                               1.0, enzyme_const, y),
              s, 1e-14);
  return check_report();
}
