// Reduced from the all-features fuzz campaign (seed 89, features
// all,vectorize,realloc,sort,constptr,fnptr,byval,tape,batch: -O3 IR with
// -fveclib=libmvec through opt): qsort of an array argument in place that
// the function reads nowhere else. Only the comparator reads the elements
// (as double), so the lowering's untyped element copies had no type anywhere
// and the program was rejected ("cannot tell what the memory this
// instruction copies holds") at every -O level. The lowering now moves
// elements the comparator reads as one floating-point type with typed loads
// and stores (the comparator wrapped, and with its arguments swapped, as
// the fuzzer spells a descending sort).
// Expected values are analytic: f1 = x^2 (the sorted array does not
// matter), f2 = max(a) * x (descending sort, then a[0]).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %plain_cc -O3 -march=native -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.d.bc
// RUN: %plain_cc -O0 -march=native %t.d.bc -lm -o %t4 && %t4 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static int cmp0(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static int cmp1(const void *a, const void *b) { return cmp0(a, b); }
static int desc(const void *a, const void *b) { return cmp0(b, a); }

/* sorts a in place and never reads it */
__attribute__((noinline)) double f1(double *a, int n, double x) {
  qsort(a, n, sizeof *a, cmp1);
  return x * x;
}

/* the largest element, through a descending sort */
__attribute__((noinline)) double f2(double *a, int n, double x) {
  qsort(a, n, sizeof *a, desc);
  return a[0] * x;
}

int main(void) {
  double a[4] = {0.5, -1.25, 2.75, 1.5}, da[4] = {0};
  double dx = __enzyme_autodiff((void *)f1, enzyme_dup, a, da, enzyme_const, 4,
                                enzyme_out, 1.5);
  check_close("f1 d/dx", dx, 3.0, 1e-15);
  for (int j = 0; j < 4; j++)
    check_close("f1 d/da", da[j], 0.0, 1e-15);
  check_close("f1 sorted a[0]", a[0], -1.25, 0);
  check_close("f1 sorted a[3]", a[3], 2.75, 0);

  double b[4] = {0.5, -1.25, 2.75, 1.5}, db[4] = {0};
  dx = __enzyme_autodiff((void *)f2, enzyme_dup, b, db, enzyme_const, 4,
                         enzyme_out, 1.5);
  check_close("f2 d/dx", dx, 2.75, 1e-15);
  // the adjoint of the initial b: the 2.75 came from b[2]
  check_close("f2 sorted b[0]", b[0], 2.75, 0);
  for (int j = 0; j < 4; j++)
    check_close("f2 d/db", db[j], j == 2 ? 1.5 : 0.0, 1e-15);

  double c[4] = {0.5, -1.25, 2.75, 1.5}, tc[4] = {0, 0, 1, 0};
  double t = __enzyme_fwddiff((void *)f2, enzyme_dup, c, tc, enzyme_const, 4,
                              enzyme_const, 1.5);
  check_close("f2 forward d/dc[2]", t, 1.5, 1e-15);
  return check_report();
}
