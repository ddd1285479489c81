// Reduced from the all-feature fuzz campaign (seed 1361: "free(): double
// free detected in tcache 2" in the first __enzyme_autodiff). In optimised
// IR (clang -O3, what the staged vectorize pipeline hands to opt) the first
// iteration of a realloc growth loop is peeled: the buffer starts as
// malloc(16), is freed directly when the loop ends after one element (m ==
// 1), and otherwise through the lowered realloc's free of a phi (the peeled
// block or a later one). The direct free was deferred to the reverse sweep,
// which freed the peeled block again after the loop's realloc had freed it.
// A block another free may release through a phi or select is now freed by
// the forward sweep. Expected values are analytic:
//   f = x a[10] + x  ->  df/dx = a[10] + 1, df/da[10] = x, others 0.
// RUN: %plain_cc -O3 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.d.bc
// RUN: %plain_cc -O0 %t.d.bc -lm -o %t && %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);

double f(double *a, int m, double x) {
  double *g0 = malloc(23 * sizeof(double));
  for (int j = 0; j < 23; j++)
    g0[j] = x * a[j];
  // A growth buffer whose values nothing returns (freed right after).
  double *g1 = NULL;
  for (int j = 0; j < m; j++) {
    if (j % 2 == 0)
      g1 = (double *)realloc(g1, (j + 2) * sizeof(double));
    g1[j] = g0[(j + 8) % 23] + 0.5 * ((j > 0) ? g1[j - 1] : 0.0);
  }
  free(g1);
  double *g2 = NULL;
  for (int j = 0; j < m + 22; j++) {
    if (j % 2 == 0)
      g2 = (double *)realloc(g2, (j + 2) * sizeof(double));
    g2[j] = x;
  }
  double r = g0[10] + g2[22];
  free(g0);
  free(g2);
  return r;
}

int main(void) {
  const int ms[3] = {23, 2, 1};
  char what[64];
  for (int k = 0; k < 3; k++) {
    double a[23], da[23] = {0}, x = -1.640625;
    for (int i = 0; i < 23; i++)
      a[i] = 0.125 * i - 1;
    double dx = __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_const,
                                  ms[k], enzyme_out, x);
    snprintf(what, sizeof what, "m=%d d/dx", ms[k]);
    check_close(what, dx, a[10] + 1, 1e-14);
    for (int i = 0; i < 23; i++) {
      snprintf(what, sizeof what, "m=%d d/da[%d]", ms[k], i);
      check_close(what, da[i], i == 10 ? x : 0, 1e-14);
    }
  }
  return check_report();
}
