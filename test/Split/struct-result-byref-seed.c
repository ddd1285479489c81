// Split mode on a function returning a struct of doubles in registers, as
// Enzyme's complex-BLAS test writes it: __enzyme_augmentfwd returns the tape
// and the struct result ({void *tape; struct complex c;}), and
// __enzyme_reverse takes the struct's seed by address after the arguments,
// `enzyme_byref, sizeof(struct complex), &seed` (Enzyme's spelling: C would
// pass the struct in pieces). The adjoints of the complex dot product
// sum x_k y_k for the seed (s_r, s_i) are analytic:
//   d/dx_k.r = s_r y_k.r + s_i y_k.i,  d/dx_k.i = -s_r y_k.i + s_i y_k.r
// (and symmetrically for y). A seed size that is not the struct's is an
// error naming the size it must be.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: not %clang -O1 -DBAD_SIZE -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// BAD: error: tapestry: enzyme_byref before the seed of 'cdot' must be followed by its size, 16 bytes (the size of struct { double, double }), and a pointer to the seed
#include "../Integration/Inputs/check.h"

struct complex {
  double r, i;
};
struct TapeAndComplex {
  void *tape;
  struct complex c;
};
extern int enzyme_const, enzyme_byref;
struct TapeAndComplex __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

struct complex cdot(struct complex *x, struct complex *y, int n) {
  struct complex sum = {0, 0};
  for (int k = 0; k < n; k++) {
    sum.r += x[k].r * y[k].r - x[k].i * y[k].i;
    sum.i += x[k].r * y[k].i + x[k].i * y[k].r;
  }
  return sum;
}

int main(void) {
  struct complex x[3] = {{1, 2}, {3, -4}, {0.5, 0.25}};
  struct complex y[3] = {{5, 6}, {-7, 8}, {2, -1}};
  struct complex dx[3] = {{0, 0}}, dy[3] = {{0, 0}};
  struct TapeAndComplex tc =
      __enzyme_augmentfwd((void *)cdot, x, dx, y, dy, enzyme_const, 3);
  struct complex want = cdot(x, y, 3);
  check_close("primal r", tc.c.r, want.r, 1e-12);
  check_close("primal i", tc.c.i, want.i, 1e-12);
  struct complex seed = {1.0, 0.5};
#ifdef BAD_SIZE
  __enzyme_reverse((void *)cdot, x, dx, y, dy, enzyme_const, 3, enzyme_byref,
                   8, &seed, tc.tape);
#else
  __enzyme_reverse((void *)cdot, x, dx, y, dy, enzyme_const, 3, enzyme_byref,
                   sizeof(struct complex), &seed, tc.tape);
#endif
  for (int k = 0; k < 3; k++) {
    check_close("d/dx.r", dx[k].r, seed.r * y[k].r + seed.i * y[k].i, 1e-12);
    check_close("d/dx.i", dx[k].i, -seed.r * y[k].i + seed.i * y[k].r, 1e-12);
    check_close("d/dy.r", dy[k].r, seed.r * x[k].r + seed.i * x[k].i, 1e-12);
    check_close("d/dy.i", dy[k].i, -seed.r * x[k].i + seed.i * x[k].r, 1e-12);
  }
  return check_report();
}
