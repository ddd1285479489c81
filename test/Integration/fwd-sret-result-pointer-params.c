// Forward mode, the source-level spelling of a function returning a struct
// in memory (Out3 t = __enzyme_fwddiff((void *)f, args...)), when the
// function's first parameter is a pointer or a struct passed by value:
// the first value passed is a pointer either way, which was taken for the
// result object of the explicit spelling (enzyme_dupnoneed, &out, &dout)
// and refused ("too few arguments", "has type double"). Without markers,
// the number of values tells them apart: the explicit spelling passes two
// more. The explicit spelling still works beside it.
// Expected: analytic tangents of o = (a b s, sin c, d a) in direction da=1
// (and ds where s is a parameter).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>

extern int enzyme_dupnoneed;
typedef struct {
  double a, b, c, d;
} In4;
typedef struct {
  double x, y, z;
} Out3;
Out3 __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_explicit(void *, ...) __asm__("__enzyme_fwddiff");

Out3 by_pointer(const In4 *p) {
  Out3 o = {p->a * p->b, sin(p->c), p->d * p->a};
  return o;
}

Out3 by_value(In4 p) {
  Out3 o = {p.a * p.b, sin(p.c), p.d * p.a};
  return o;
}

Out3 by_value_scaled(In4 p, double s) {
  Out3 o = {s * p.a * p.b, sin(p.c), p.d * p.a};
  return o;
}

static void check3(const char *what, Out3 t, double x, double y, double z) {
  check_close(what, t.x, x, 1e-14);
  check_close(what, t.y, y, 1e-14);
  check_close(what, t.z, z, 1e-14);
}

int main(void) {
  In4 p = {1.5, 2.0, 0.3, -1.0}, dp = {1.0, 0, 0, 0};
  // d/da: (b, 0, d); with s = 0.5 and ds = 1: (s b + a b, 0, d).
  check3("pointer", __enzyme_fwddiff((void *)by_pointer, &p, &dp), 2.0, 0,
         -1.0);
  check3("by value", __enzyme_fwddiff((void *)by_value, p, dp), 2.0, 0, -1.0);
  check3("by value, scaled",
         __enzyme_fwddiff((void *)by_value_scaled, p, dp, 0.5, 1.0),
         0.5 * 2.0 + 1.5 * 2.0, 0, -1.0);
  Out3 out, dout;
  __enzyme_fwddiff_explicit((void *)by_pointer, enzyme_dupnoneed, &out, &dout,
                            &p, &dp);
  check3("explicit", dout, 2.0, 0, -1.0);
  return check_report();
}
