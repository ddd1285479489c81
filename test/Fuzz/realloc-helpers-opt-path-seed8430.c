// Reduced from the all-features fuzz campaign (seed 8430, Dec 2026): f
// grows a buffer g by realloc, g[j] = sin((a[3j % 12] + x) / 4), calls a
// noinline helper h2(g, p) that only reads g (a 3-trip loop of exp(q[8])
// and a select between q[5] and q[4] on p > 8, each trip calling another
// noinline helper h1(q, v) = log2(q[0]) - v whose result is unused), and
// returns g[1]. df/dx = df/da[3] = cos((a[3] + x) / 4) / 4.
// With the IR optimised at -O3 before Tapestry runs (both helpers become
// internal fastcc void functions, h1's pointer parameter a double), the
// reverse gave 4.37e-06 instead of 0.1432 for both (silent; an XFAIL test
// since Dec 2026). Fixed by session 21's changes (plugin 5437e9e; a68dd4a
// still fails): most likely the type analysis no longer taking a double
// written at a byte offset known only as a multiple of 1 for a double at
// every byte of the realloc-grown buffer.
// RUN: %plain_cc -O3 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cc -O0 %t.bc -lm -o %t && %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <math.h>
#include <stdlib.h>
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_const, enzyme_dup, enzyme_out;
static __attribute__((noinline)) double h1(double *q, double p) { return log2(q[0]) - p; }
static __attribute__((noinline)) double h2(double *q, double p) {
  for (int i = 0; i < 3; i++) {
    double t = exp(q[8]);
    double s = h1(q, (p > 8.0) ? q[(i * 2 + 5) % 12] : q[(i * 3 + 4) % 12]);
  }
  return 1.0;
}
double f(double x, double *a, int n) {
  double *g = NULL;
  for (int j = 0; j < 12; j++) {
    g = (double *)realloc(g, (j + 1) * sizeof(double));
    g[j] = sin((a[(j * 3) % 12] + x) * 0.25);
  }
  double r3 = -2.9375;
  for (int v = 0; v < 12; v++) r3 += cbrt(1.0);   /* 9.0625, not folded */
  double r4 = h2(g, r3);
  double ret = g[1];
  free(g);
  return ret;
}
int main(void) {
  double x = -1.859375;
  double a[12] = {-1.421875, -1.90625,  -0.734375, -1.984375,
                  -0.703125, -1.734375, -1.96875,  -1.84375,
                  -1.953125, -1.796875, -1.921875, -1.828125};
  double da[12] = {0};
  double d = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_dup, a, da,
                               enzyme_const, 2);
  double e = cos((a[3] + x) * 0.25) * 0.25;
  check_close("d/dx", d, e, 1e-12);
  check_close("d/da[3]", da[3], e, 1e-12);
  return check_report();
}
