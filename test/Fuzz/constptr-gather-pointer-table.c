// Reduced from the all-features fuzz campaign (seed 516, features
// all,vectorize,realloc,sort,constptr,fnptr,byval,tape,batch, -O3
// -march=native -ffast-math before opt; was rejected). A malloc'd table of
// array pointers filled through `*p++ = a` (feature constptr) and read as
// tab[(v + 2) % 3][15] in a loop: the loop vectoriser loads the table's
// pointers with a gather (llvm.masked.gather of <4 x ptr>). Their shadows
// are gathered from the table's shadow (test/Vector/masked-pointer-gather.ll
// has the IR shapes in forward, reverse and batch mode).
// Expected values are analytic: the minimum is at v = 2, tab[1] = b:
// f = b[15] / 16 + 0.25, so d/db[15] = 1/16 and d/da = 0.
// The derivative is compiled for the baseline x86-64 (%any_x86_cpu), so
// that it runs on machines without AVX-512 too.
// RUN: %plain_cc -O3 -march=x86-64-v4 -ffast-math -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -S -o - | %any_x86_cpu > %t.d.ll
// RUN: %plain_cc -O0 %t.d.ll -lm -o %t && %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

double f(double *a, double *b, int m) {
  const double **tab = (const double **)malloc(3 * sizeof(const double *));
  const double **p = tab;
  *p++ = a;
  *p++ = b;
  *p++ = a;
  double r = 2.8125;
  for (int v = 0; v < m; v++)
    r = fmin(r, tab[(v + 2) % 3][15] * 0.0625 + 0.125 * v);
  free(tab);
  return r;
}

int main(void) {
  double a[16], b[16], da[16] = {0}, db[16] = {0};
  for (int j = 0; j < 16; j++) {
    a[j] = 0.25 * j - 1;
    b[j] = 0.5 - 0.125 * j;
  }
  __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_dup, b, db,
                    enzyme_const, 24);
  for (int j = 0; j < 16; j++) {
    check_close("d/da", da[j], 0.0, 1e-15);
    check_close("d/db", db[j], j == 15 ? 0.0625 : 0.0, 1e-15);
  }
  return check_report();
}
