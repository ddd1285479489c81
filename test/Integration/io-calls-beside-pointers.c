// Calls that get no derivative code (snprintf into a label, printf of a
// pointer) given parts of a local record or array that also holds pointers
// to active data: those pointers keep their shadows. A first version of
// the rule for std::string's member functions (a pointer loaded from bytes
// such a call may write has no shadow) took them as writing everything
// after the label, and the gradient through the pointers was 0 without an
// error (found in review). Only declared parameters of a known size count.
// Expected: f = sum_i x_i^2 y_i, df/dx_i = 2 x_i y_i, df/dy_i = x_i^2;
// g = a_0 b_0 + a_1 b_1.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %plain_cc -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cc %t.bc -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdio.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

typedef struct {
  char label[16];
  double *x, *y;
  int n;
} Rec;

static double use(Rec *r) {
  double s = 0;
  for (int i = 0; i < r->n; i++)
    s += r->x[i] * r->x[i] * r->y[i];
  return s;
}

double f(double *x, double *y, int n, int run) {
  Rec r;
  r.x = x;
  r.y = y;
  r.n = n;
  snprintf(r.label, sizeof r.label, "run %d", run);
  return use(&r);
}

double g(double *a, double *b) {
  double *rows[2] = {a, b};
  if (a[0] > 1e300)
    printf("%p %p\n", (void *)rows[0], (void *)rows[1]);
  return rows[0][0] * rows[1][0] + rows[0][1] * rows[1][1];
}

int main(void) {
  double x[3] = {0.5, -1.5, 2.0}, y[3] = {1.0, 2.0, -0.5};
  double dx[3] = {0}, dy[3] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy,
                    enzyme_const, 3, enzyme_const, 7);
  for (int i = 0; i < 3; i++) {
    check_close("df/dx", dx[i], 2 * x[i] * y[i], 1e-12);
    check_close("df/dy", dy[i], x[i] * x[i], 1e-12);
  }
  double a[2] = {1.4, -0.3}, b[2] = {0.7, -5.2}, da[2] = {0}, db[2] = {0};
  __enzyme_autodiff((void *)g, enzyme_dup, a, da, enzyme_dup, b, db);
  check_close("dg/da0", da[0], b[0], 1e-12);
  check_close("dg/da1", da[1], b[1], 1e-12);
  check_close("dg/db0", db[0], a[0], 1e-12);
  check_close("dg/db1", db[1], a[1], 1e-12);
  return check_report();
}
