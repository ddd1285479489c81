// A function that rounds its pointer up to 16 bytes through uintptr_t
// ((x + 15) & ~15) before walking the array, called with a shadow buffer
// whose alignment differs from the primal's (primal 16-aligned, shadow 8
// mod 16). The shadow of the rounded address is at the same byte offset
// from the shadow buffer as the address is from x; rounding the shadow
// itself (as an earlier version did) moved it by one element where the
// primal does not, and every adjoint landed one element late: a silent
// wrong number (review23b F6). The opt flow differentiates the -O3 IR,
// whose vectorised loop loads the rounded address with 16-byte-aligned
// loads: the derivative must not load the (8 mod 16) shadow that way.
// (cubeInto's loop is the vectorised one.)
// Expected: d/dx_i sum x_i^3 = 3 x_i^2 for the first n elements (reverse),
// and the tangent sum 3 x_i^2 v_i (forward); for y_i = x_i^3 seeded with
// dy, d/dx_i = 3 x_i^2 dy_i.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %plain_cc -O3 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cc -O2 %t.bc -lm -o %to && %to | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdint.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { N = 37 };

__attribute__((noinline)) double alignedSum(double *x, int n) {
  double *a = (double *)(((uintptr_t)x + 15) & ~(uintptr_t)15);
  double s = 0;
  for (double *p = a; p != a + n; ++p)
    s += *p * *p * *p;
  return s;
}

/* A loop the vectoriser turns into 16-byte-aligned vector loads of a. */
__attribute__((noinline)) void cubeInto(double *x, double *y, int n) {
  double *a = (double *)(((uintptr_t)x + 15) & ~(uintptr_t)15);
  for (int i = 0; i < n; ++i)
    y[i] = a[i] * a[i] * a[i];
}

int main(void) {
  volatile int vn = N;
  int n = vn;
  _Alignas(16) double xb[N + 2], db[N + 4];
  double *x = xb;      /* 16-aligned: a == x */
  double *dx = db + 1; /* 8 mod 16: rounding moves it by one element */
  for (int i = 0; i < N + 2; i++)
    x[i] = 0.3 + 0.01 * i;
  memset(db, 0, sizeof db);
  __enzyme_autodiff((void *)alignedSum, enzyme_dup, x, dx, enzyme_const, n);
  char what[48];
  for (int i = 0; i < N; i++) {
    snprintf(what, sizeof what, "d/dx[%d]", i);
    check_close(what, dx[i], 3 * x[i] * x[i], 1e-12);
  }
  check_close("dx past n", dx[N], 0, 0);
  check_close("dx before x", db[0], 0, 0);

  double expected = 0;
  for (int i = 0; i < N + 2; i++) {
    dx[i] = 1.0 + 0.5 * i;
    if (i < N)
      expected += 3 * x[i] * x[i] * dx[i];
  }
  double t = __enzyme_fwddiff((void *)alignedSum, enzyme_dup, x, dx,
                              enzyme_const, n);
  check_close("tangent", t, expected, 1e-12);

  /* y' = dy: d/dx_i <dy, y> = 3 x_i^2 dy_i. */
  double y[N], dy[N];
  memset(db, 0, sizeof db);
  for (int i = 0; i < N; i++)
    dy[i] = 0.25 + 0.125 * i;
  __enzyme_autodiff((void *)cubeInto, enzyme_dup, x, dx, enzyme_dup, y, dy,
                    enzyme_const, n);
  for (int i = 0; i < N; i++) {
    snprintf(what, sizeof what, "cubeInto d/dx[%d]", i);
    check_close(what, dx[i], 3 * x[i] * x[i] * (0.25 + 0.125 * i), 1e-12);
  }
  check_close("cubeInto dx past n", dx[N], 0, 0);
  check_close("cubeInto dx before x", db[0], 0, 0);
  return check_report();
}
