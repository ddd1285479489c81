// __enzyme_augmentsize is the number of bytes the augmented forward writes:
// a buffer of exactly that size works, nothing past it is touched, and a
// buffer whose size is only known at run time is checked at run time.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: not %t0 small 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: not %t2 small 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: %clang -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// SMALL: tapestry: the tape buffer given with enzyme_allocated to __enzyme_augmentfwd is smaller than the {{[0-9]+}} bytes the tape of 'poly' needs
// The size is a constant in the program, and no entry point is left.
// IR-LABEL: define {{.*}}i32 @size_of_poly_tape()
// IR-NOT: call
// IR: ret i32 {{[1-9][0-9]*}}
// IR-NEXT: }
// IR-NOT: __enzyme_
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_allocated, enzyme_tape;
void __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
void __enzyme_autodiff(void *, ...);
int __enzyme_augmentsize(void *, ...);

/* y = sum_k c_k x^k evaluated with a stack array of powers. */
__attribute__((noinline)) void poly(const double *x, const double *c, double *y,
                                    int n) {
  double p[8];
  p[0] = 1;
  for (int k = 1; k < 8; k++)
    p[k] = p[k - 1] * x[0];
  double s = 0;
  for (int k = 0; k < n && k < 8; k++)
    s += c[k] * p[k] * sin(p[k]);
  y[0] = s;
}

__attribute__((noinline)) int size_of_poly_tape(void) {
  return __enzyme_augmentsize((void *)poly, enzyme_dup, enzyme_const,
                              enzyme_dup, enzyme_const);
}

int main(int argc, char **argv) {
  double x = 0.7, c[8] = {1, -2, 0.5, 3, -1, 0.25, 2, -0.75};
  int size = size_of_poly_tape();
  if (argc > 1) { /* "small": a run-time size one byte short */
    volatile int short_size = size - 1;
    char *buf = malloc(size);
    double dx = 0, y, dy = 1;
    __enzyme_augmentfwd((void *)poly, enzyme_allocated, short_size,
                        enzyme_tape, buf, enzyme_dup, &x, &dx, enzyme_const, c,
                        enzyme_dup, &y, &dy, enzyme_const, 8);
    printf("not stopped\n");
    return 0;
  }
  printf("tape bytes: %d\n", size);
  enum { Canary = 256 };
  unsigned char *buf = malloc(size + Canary);
  memset(buf, 0xA5, size + Canary);
  double dx = 0, y, dy = 1;
  __enzyme_augmentfwd((void *)poly, enzyme_allocated, size, enzyme_tape, buf,
                      enzyme_dup, &x, &dx, enzyme_const, c, enzyme_dup, &y,
                      &dy, enzyme_const, 8);
  int touched_after = 0, written = 0;
  for (int i = 0; i < Canary; i++)
    touched_after += buf[size + i] != 0xA5;
  for (int i = 0; i < size; i++)
    written += buf[i] != 0xA5;
  check_close("bytes past the tape untouched", touched_after, 0, 0);
  check_close("the tape is used", written > 0, 1, 0);
  /* The last 16 bytes hold data: the size is not padded by more than the
   * tape's 16-byte rounding. */
  int tail_written = 0;
  for (int i = size - 24; i < size; i++)
    tail_written += buf[i] != 0xA5;
  check_close("the tape's end is used", tail_written > 0, 1, 0);
  __enzyme_reverse((void *)poly, enzyme_allocated, size, enzyme_tape, buf,
                   enzyme_dup, &x, &dx, enzyme_const, c, enzyme_dup, &y, &dy,
                   enzyme_const, 8);
  double want = 0, p = 1, dp = 0;
  for (int k = 0; k < 8; k++) {
    want += c[k] * (dp * sin(p) + p * cos(p) * dp);
    dp = dp * x + p;
    p *= x;
  }
  check_close("poly dx", dx, want, 1e-12);
  free(buf);
  return check_report();
}
