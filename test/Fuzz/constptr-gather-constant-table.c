// The variant of constptr-gather-pointer-table.c where the table also holds
// a pointer to constant data (a is enzyme_const): the vectorised loop
// gathers the table's pointers, then gathers doubles through them, and
// which lanes point to constant data is only known at run time (runtime
// activity: their shadow is the pointer itself). The gather of doubles
// tests it lane by lane (test/Vector/masked-pointer-gather-constant.ll);
// it was rejected before, and without the test the derivative would have
// been accumulated into a.
// Expected values are analytic: the minimum is at v = 2, tab[1] = b:
// f = b[15] / 16 + 0.25, so d/db[15] = 1/16; a must not change.
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

double f(const double *a, double *b, int m) {
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
  double a[16], b[16], db[16] = {0};
  for (int j = 0; j < 16; j++) {
    a[j] = 0.25 * j - 1;
    b[j] = 0.5 - 0.125 * j;
  }
  __enzyme_autodiff((void *)f, enzyme_const, a, enzyme_dup, b, db,
                    enzyme_const, 24);
  for (int j = 0; j < 16; j++) {
    check_close("d/db", db[j], j == 15 ? 0.0625 : 0.0, 1e-15);
    check_close("constant a unchanged", a[j], 0.25 * j - 1, 0);
  }
  return check_report();
}
