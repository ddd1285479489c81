// Found by the all-features fuzz campaign on 3 Dec 2026 (seed 3860,
// features all,vectorize,realloc,sort,constptr,fnptr,byval,tape,batch). A
// noinline helper whose only effect on memory is to move elements of its
// double array argument (memmove here; in the fuzz program a memcpy into a
// local array and back into the argument, its other computations dead) and
// which also takes a floating-point parameter is differentiated on its own
// (kept as a call), and nothing in it reads or writes the array with a
// type. It was rejected with "cannot tell what the memory this instruction
// copies holds"; its callers read and write the array as double, and the
// type analysis now asks them (every use of the helper is a direct call).
// h moves with memmove, g through a local array with two memcpys, and k is
// called from two functions that both say double.
// Expected values are analytic. f: the memmove makes a[2] = x^2 and a[5]
// the old a[3], so f = x^2 a[1] + a[3]: d/dx = 2 x a[1], d/da[1] = x^2,
// d/da[3] = 1, and 0 for the other elements (a[0] is overwritten before it
// is read, a[2], a[4] and a[5] are overwritten by the memmove).
// f2: g copies b[0..3) to b[3..6) through a local array, so
// f2 = x b[0] + b[1] b[4] + b[5] = x b[0] + b[1]^2 + b[2].
// f3: k swaps c[0] and c[1]; f3 = c[0] * sin(c[1]) after the swap, and
// f4 = c[0]^2 after the swap (k called from both).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <string.h>

extern int enzyme_dup, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static __attribute__((noinline)) void h(double *q, double p) {
  memmove(q + 2, q, 4 * sizeof *q);
}

double f(double *a, double x) {
  a[0] = x * x;
  h(a, 0.5);
  return a[2] * a[1] + a[5];
}

static __attribute__((noinline)) void g(double *q, double unused) {
  double tmp[3];
  memcpy(tmp, q, sizeof tmp);
  memcpy(q + 3, tmp, sizeof tmp);
}

double f2(double *b, double x) {
  g(b, x);
  return x * b[0] + b[1] * b[4] + b[5];
}

static __attribute__((noinline)) void k(double *c, double unused) {
  double t[2];
  memcpy(t, c, sizeof t);
  c[0] = 0; // keeps the swap from folding away at -O3 (never read)
  memcpy(c, t + 1, sizeof(double));
  memcpy(c + 1, t, sizeof(double));
}

double f3(double *c, double x) {
  k(c, x);
  return c[0] * sin(c[1]);
}

double f4(double *c, double x) {
  k(c, x);
  return c[0] * c[0];
}

int main(void) {
  {
    double a[6] = {1, 2, 3, 4, 5, 6}, da[6] = {0}, x = 0.5;
    double want[6] = {0, x * x, 0, 1, 0, 0};
    double dx =
        __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_out, x);
    check_close("f d/dx", dx, 2 * x * 2, 1e-15);
    for (int j = 0; j < 6; j++)
      check_close("f d/da", da[j], want[j], 1e-15);
    double a2[6] = {1, 2, 3, 4, 5, 6}, ta[6] = {0, 1, 0, 0, 0, 0};
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, a2, ta, 0.5, 0.0);
    check_close("f tangent along a[1]", t, x * x, 1e-15);
  }
  {
    double b[6] = {1.5, 2, 3, 0, 0, 0}, db[6] = {0}, x = 0.25;
    double want[6] = {x, 2 * 2.0, 1, 0, 0, 0};
    double dx =
        __enzyme_autodiff((void *)f2, enzyme_dup, b, db, enzyme_out, x);
    check_close("f2 d/dx", dx, 1.5, 1e-15);
    for (int j = 0; j < 6; j++)
      check_close("f2 d/db", db[j], want[j], 1e-15);
  }
  {
    double c[2] = {0.3, 0.7}, dc[2] = {0};
    __enzyme_autodiff((void *)f3, enzyme_dup, c, dc, enzyme_out, 1.0);
    // f3 = c1 sin(c0) in the original values.
    check_close("f3 d/dc0", dc[0], 0.7 * cos(0.3), 1e-15);
    check_close("f3 d/dc1", dc[1], sin(0.3), 1e-15);
    double e[2] = {0.3, 0.7}, de[2] = {0};
    __enzyme_autodiff((void *)f4, enzyme_dup, e, de, enzyme_out, 1.0);
    // f4 = c1^2 in the original values.
    check_close("f4 d/dc0", de[0], 0, 1e-15);
    check_close("f4 d/dc1", de[1], 2 * 0.7, 1e-15);
  }
  return check_report();
}
