// A function differentiated on its own (noinline, so kept as a call) that
// moves its callers' memory without a typed access of its own: the type
// analysis asks the callers what the bytes hold. Three shapes: the caller
// passes a pointer into the middle of its array (the callee's offsets are
// relative to it); a struct mixing an int, a float and a double is copied
// whole (only the float and the double carry adjoints; the int must not be
// added as a float); and the copying helper is reached through another
// helper that only passes the pointer on (the callers' callers are asked).
// Expected values are analytic (see each block).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <string.h>

extern int enzyme_dup, enzyme_out, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

// Copies q[0..2) to q[2..4).
static __attribute__((noinline)) void dup2(double *q, double unused) {
  memcpy(q + 2, q, 2 * sizeof *q);
}

// a[1], a[2] are copied to a[3], a[4]: f = a[3] * a[4] + x a[0]
// = a[1] a[2] + x a[0].
double f(double *a, double x) {
  dup2(a + 1, x);
  return a[3] * a[4] + x * a[0];
}

struct Mixed {
  int n;
  float w;
  double v;
};

static __attribute__((noinline)) void copy_mixed(struct Mixed *dst,
                                                 const struct Mixed *src,
                                                 double unused) {
  memcpy(dst, src, sizeof *dst);
}

// d = s; g = d.w * d.v * d.n = s.w s.v s.n.
double g(struct Mixed *s, struct Mixed *d, double x) {
  copy_mixed(d, s, x);
  return d->w * d->v * d->n;
}

static __attribute__((noinline)) void shift(double *q, double unused) {
  memmove(q + 1, q, 2 * sizeof *q);
}

static __attribute__((noinline)) void pass_on(double *q, double u) {
  shift(q, u);
  q[0] = 0;
}

// After shift: b[1] = old b[0], b[2] = old b[1]; b[0] is then zeroed.
// h = b[1] * b[2] * x = b0 b1 x (old values).
double h(double *b, double x) {
  pass_on(b, x);
  return b[1] * b[2] * x;
}

int main(void) {
  {
    double a[5] = {0.5, 1.5, 2.5, 0, 0}, da[5] = {0}, x = 3;
    double dx =
        __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_out, x);
    check_close("f d/dx", dx, 0.5, 1e-15);
    double want[5] = {x, 2.5, 1.5, 0, 0};
    for (int j = 0; j < 5; j++)
      check_close("f d/da", da[j], want[j], 1e-15);
    double a2[5] = {0.5, 1.5, 2.5, 0, 0}, ta[5] = {0, 1, 0, 0, 0};
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, a2, ta, x, 0.0);
    check_close("f tangent along a[1]", t, 2.5, 1e-15);
  }
  {
    struct Mixed s = {3, 0.5f, 1.25}, ds = {0, 0, 0}, d = {0, 0, 0},
                 dd = {0, 0, 0};
    __enzyme_autodiff((void *)g, enzyme_dup, &s, &ds, enzyme_dup, &d, &dd,
                      enzyme_const, 1.0);
    check_close("g d/dw", ds.w, 1.25 * 3, 1e-6);
    check_close("g d/dv", ds.v, 0.5 * 3, 1e-15);
    check_close("g shadow int untouched", ds.n, 0, 0);
    check_close("g primal copied", d.v, 1.25, 0);
  }
  {
    double b[3] = {0.75, 1.25, 9}, db[3] = {0}, x = 2;
    double dx =
        __enzyme_autodiff((void *)h, enzyme_dup, b, db, enzyme_out, x);
    check_close("h d/dx", dx, 0.75 * 1.25, 1e-15);
    check_close("h d/db0", db[0], 1.25 * x, 1e-15);
    check_close("h d/db1", db[1], 0.75 * x, 1e-15);
    check_close("h d/db2", db[2], 0, 1e-15);
  }
  return check_report();
}
