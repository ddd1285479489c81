// Fortran BLAS with 64-bit integers (an ILP64 interface) that the plugin
// cannot see are 64-bit: they reach the call through the caller's
// pointers. Tapestry reads their first 32 bits (the value, on a
// little-endian target, below 2^31) and passes the integers of the calls it
// emits in 64-bit slots, sign-extended, which an ILP64 and a 32-bit BLAS
// both read right. (Integers visibly 64-bit are an error:
// test/Errors/blas-unsupported.c.) The library is a stand-in ILP64 ddot_ and
// daxpy_ (Inputs/ilp64-blas.c), compiled without the plugin. Gradient of
// x.y against the analytic one.
// RUN: %clang -O0 -c %S/Inputs/ilp64-blas.c -o %t.blas.o
// RUN: %clang -O0 %s %t.blas.o -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s %t.blas.o -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdint.h>

double ddot_(const int64_t *n, const double *x, const int64_t *incx,
             const double *y, const int64_t *incy);

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

/* x.y over n elements, x with increment 2, y with increment 1. */
__attribute__((noinline)) double dot(const double *x, const double *y,
                                     const int64_t *n, const int64_t *inc) {
  return ddot_(n, x, inc, y, inc + 1);
}

/* The ILP64 library reads 8 bytes where a 32-bit slot would have 4: fill
 * the stack the derivative's frame will occupy with ones first. */
__attribute__((noinline)) static void poison_stack(void) {
  volatile char junk[4096];
  for (int i = 0; i < 4096; i++)
    junk[i] = (char)0xff;
}

int main(void) {
  poison_stack();
  double x[6] = {1, -7, 2, -7, 3, -7}, y[3] = {0.5, -1, 4};
  double dx[6] = {0}, dy[3] = {0};
  int64_t n = 3, inc[2] = {2, 1};
  __enzyme_autodiff((void *)dot, enzyme_dup, x, dx, enzyme_dup, y, dy,
                    enzyme_const, &n, enzyme_const, inc);
  for (int i = 0; i < 3; i++) {
    check_close("d/dx", dx[2 * i], y[i], 1e-15);
    check_close("d/dx (skipped)", dx[2 * i + 1], 0, 1e-15);
    check_close("d/dy", dy[i], x[2 * i], 1e-15);
  }
  return check_report();
}
