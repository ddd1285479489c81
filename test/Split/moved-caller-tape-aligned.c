// A caller's tape buffer (enzyme_allocated) whose tape has fields aligned
// to 16 bytes (a local array the tape keeps), copied to another buffer
// between the halves: to a buffer aligned the same way the reverse is
// right; to one 8 bytes off, the tape would be read from another start, and
// the reverse stops saying so (it said the tape was not filled or was
// freed, neither of which was true: probe27).
// RUN: %clang -O2 %s -o %t -lm
// RUN: %t same | FileCheck %s --check-prefix=RIGHT
// RUN: not %t shifted 2>&1 | FileCheck %s --check-prefix=MOVED
// RIGHT-NOT: FAIL
// RIGHT: ALL PASSED
// MOVED: tapestry: the tape passed to the reverse of 'f' was not filled by its augmented forward {{.*}}, or its buffer was copied or moved to an address aligned differently (this tape's fields need 16-byte alignment: keep the buffer where __enzyme_augmentfwd filled it, or align every buffer holding it to 16 bytes).
#include "../Integration/Inputs/check.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_allocated, enzyme_tape;
double __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
unsigned long __enzyme_augmentsize(void *, ...);

double f(const double *x, int n) {
  double acc[4] = {0, 0, 0, 0};
  for (int i = 0; i < n; i++)
    acc[i % 4] += sin(x[i]) * x[i];
  return acc[0] * acc[1] + acc[2] + acc[3];
}

int main(int argc, char **argv) {
  int shifted = argc > 1 && !strcmp(argv[1], "shifted");
  enum { N = 8 };
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = 0.1 * (i + 1);
  unsigned long size =
      __enzyme_augmentsize((void *)f, enzyme_dup, enzyme_const);
  char *first = aligned_alloc(64, size + 64), *second = aligned_alloc(64, size + 64);
  __enzyme_augmentfwd((void *)f, enzyme_allocated, size, enzyme_tape, first,
                      enzyme_dup, x, dx, enzyme_const, N);
  char *moved = second + (shifted ? 8 : 0);
  memcpy(moved, first, size);
  memset(first, 0, size);
  __enzyme_reverse((void *)f, enzyme_allocated, size, enzyme_tape, moved,
                   enzyme_dup, x, dx, enzyme_const, N, 1.0);
  double acc[4] = {0, 0, 0, 0};
  for (int i = 0; i < N; i++)
    acc[i % 4] += sin(x[i]) * x[i];
  for (int i = 0; i < N; i++) {
    double d = sin(x[i]) + x[i] * cos(x[i]);
    double w = i % 4 == 0 ? acc[1] : i % 4 == 1 ? acc[0] : 1;
    check_close("d/dx", dx[i], w * d, 1e-12);
  }
  free(first);
  free(second);
  return check_report();
}
