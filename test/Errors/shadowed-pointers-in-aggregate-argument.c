// A batch forward derivative (enzyme_width 2) of a recursive function that
// passes memory of its own to itself, differentiated again in reverse
// mode: the batch derivative hands its per-lane shadows to its recursive
// call as an array of pointers ([2 x ptr]) by value, and a called function
// gets shadows for its pointer parameters only, so the reverse lost what
// the recursion wrote there: a wrong gradient (0.3472 for 0.3421) without
// an error (review 38). Now an error at the request. The same with width-1
// derivatives is right (second RUN line).
// RUN: not %clang -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang -O0 -DWIDTH1 %s -lm -o %t && %t | FileCheck %s --check-prefix=W1
// CHECK-NOT: PLEASE submit a bug report
// CHECK: error: tapestry: cannot differentiate 'tsum': a pointer to memory with derivatives, an address computed, is passed to 'rec' inside an array or struct, and Tapestry gives a called function the shadows of its pointer parameters only; pass it as a pointer parameter (a batch derivative, enzyme_width, of a recursive function cannot be differentiated again: use width-1 derivatives there)
// W1: PASS
#include <math.h>
#include <stdio.h>
#include <string.h>
extern int enzyme_width, enzyme_dupv, enzyme_const, enzyme_dup;
typedef struct {
  double d[2];
} L2;
extern L2 __enzyme_fwddiff(void *, ...);
extern double __enzyme_fwddiff1(void *, ...) __asm__("__enzyme_fwddiff");
extern void __enzyme_autodiff(void *, ...);

static double rec(const double *x, int d) {
  double a[2];
  a[0] = 0.6 * x[0] + 0.1 * x[1] * x[0];
  a[1] = 0.6 * x[1] + 0.05 * d;
  double s = a[0] * a[1];
  if (d > 0)
    s += 0.5 * sin(rec(a, d - 1));
  return s;
}
double top(const double *x, int n) {
  (void)n;
  return rec(x, 2);
}
// The sum of the two directional derivatives.
__attribute__((noinline)) double tsum(const double *x) {
#ifdef WIDTH1
  double s = 0, d[2][2] = {{1, 0}, {0, 1}};
  for (int k = 0; k < 2; k++)
    s += __enzyme_fwddiff1((void *)top, enzyme_dup, x, d[k], enzyme_const, 2);
  return s;
#else
  double seeds[4] = {1, 0, 0, 1};
  L2 g = __enzyme_fwddiff((void *)top, enzyme_width, 2, enzyme_dupv,
                          sizeof(double) * 2, x, seeds, enzyme_const, 2);
  return g.d[0] + g.d[1];
#endif
}
int main(void) {
  double x[2] = {0.3, -0.7}, dx[2] = {0};
  __enzyme_autodiff((void *)tsum, enzyme_dup, x, dx);
  int ok = 1;
  for (int k = 0; k < 2; k++) {
    double xp[2], xm[2], h = 1e-5;
    memcpy(xp, x, sizeof xp);
    memcpy(xm, x, sizeof xm);
    xp[k] += h;
    xm[k] -= h;
    double fd = (tsum(xp) - tsum(xm)) / (2 * h);
    ok &= fabs(dx[k] - fd) < 1e-6;
  }
  puts(ok ? "PASS" : "FAIL");
  return !ok;
}
