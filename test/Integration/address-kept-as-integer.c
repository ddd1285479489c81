// An address kept as an integer (uintptr_t) in a record with a shadow and
// read back through a cast, in forward (width 1 and 2) and reverse mode:
// the store side stores the shadow's address beside it (as an integer),
// and the read side read nothing from the shadow, so the derivative
// through the address was lost without an error (found in review). The
// cast of an integer read from memory with a shadow now takes the same
// integer from the shadow memory.
// Expected: f = (x0^2 + x1) x0, df/dx0 = 3 x0^2 + x1, df/dx1 = x0.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdint.h>
extern int enzyme_dup, enzyme_const, enzyme_width, enzyme_dupnoneed;
double __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);
typedef struct { double a, b; } T2;
T2 __enzyme_fwddiff2(void *, ...);
typedef struct { uintptr_t h; double w; } Box;

__attribute__((noinline)) double use(Box *b) {
  double *x = (double *)b->h;
  return (x[0] * x[0] + x[1]) * b->w;
}
double f(double *x, Box *b) {
  b->h = (uintptr_t)x;
  b->w = x[0];
  return use(b);
}
int main(void) {
  double x[2] = {0.7, 1.9}, dx[2] = {1, 0}, dx2[2] = {0, 1};
  Box b, db, db2;
  double w0 = 3 * x[0] * x[0] + x[1], w1 = x[0];
  check_close("fwd", __enzyme_fwddiff((void *)f, enzyme_dup, x, dx, enzyme_dup, &b, &db), w0, 1e-12);
  T2 t = __enzyme_fwddiff2((void *)f, enzyme_width, 2, enzyme_dup, x, dx, dx2, enzyme_dup, &b, &db, &db2);
  check_close("fwd2 0", t.a, w0, 1e-12);
  check_close("fwd2 1", t.b, w1, 1e-12);
  double g[2] = {0, 0};
  Box gb = {0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_dup, &b, &gb);
  check_close("rev 0", g[0], w0, 1e-12);
  check_close("rev 1", g[1], w1, 1e-12);
  return check_report();
}
