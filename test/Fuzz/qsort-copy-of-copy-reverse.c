// Reduced from the sort fuzz feature (seed 4 of the 100-seed campaign, then
// by hand): a malloc'd copy c1 of a malloc'd array c0 is qsort'ed and one
// sorted element returned. Reverse mode must send its adjoint to the input
// the element came from (a[2] here: c1[1] = 0.75 erf(-2.4375 - 1.25 a[2])).
// With main at 309080c the adjoint lands on a[1] (the element at the same
// index before sorting: as if the permutation were the identity), while
// forward mode is right; the plugin at 7a7fcdf got it right.
// Fixed: the lowering's byte index `perm[i] << 3` keeps the element stride.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK: PASS
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
static int asc(const void *a, const void *b) {
  if (*(const double *)a < *(const double *)b)
    return -1;
  return *(const double *)a > *(const double *)b;
}
double f(double *a) {
  double *c0 = malloc(5 * sizeof(double));
  for (int j = 0; j < 5; j++)
    c0[j] = erf(-2.4375 - 1.25 * a[j]);
  double *c1 = malloc(5 * sizeof(double));
  for (int j = 0; j < 5; j++)
    c1[j] = 0.75 * c0[j];
  qsort(c1, 5, sizeof *c1, asc);
  double r = c1[1];
  free(c0);
  free(c1);
  return r;
}
int main(void) {
  static const double v[5] = {-1.5, 3.5625, 0.25, -0.75, -1.25};
  double a[5], da[5] = {0};
  for (int j = 0; j < 5; j++)
    a[j] = v[j];
  __enzyme_autodiff((void *)f, enzyme_dup, a, da);
  // c1 sorted: a[1] (erf(-6.89)), a[2] (erf(-2.75)), ...; d/da[2] analytic
  double x = -2.4375 - 1.25 * v[2];
  double want = 0.75 * 2 / sqrt(M_PI) * exp(-x * x) * -1.25;
  int ok = 1;
  for (int j = 0; j < 5; j++) {
    double w = j == 2 ? want : 0;
    if (fabs(da[j] - w) > 1e-12 * (1 + fabs(w))) {
      printf("FAIL REV a[%d] %.17g want %.17g\n", j, da[j], w);
      ok = 0;
    }
  }
  for (int k = 0; k < 5; k++) {
    double t[5] = {0};
    t[k] = 1;
    for (int j = 0; j < 5; j++)
      a[j] = v[j];
    double g = __enzyme_fwddiff((void *)f, enzyme_dup, a, t);
    double w = k == 2 ? want : 0;
    if (fabs(g - w) > 1e-12 * (1 + fabs(w))) {
      printf("FAIL FWD a[%d] %.17g want %.17g\n", k, g, w);
      ok = 0;
    }
  }
  if (ok)
    printf("PASS\n");
  return 0;
}
