// LeakSanitizer, split mode with heap blocks allocated inside a loop (one
// per iteration), which the tape owns (Synthesis/LoopBlockLists.h): the
// blocks and their shadows are freed by the tape's release whether the
// reverse ran never, once or three times, and a reverse frees nothing of
// them. The program is compiled with AddressSanitizer and run with leak
// detection: no leak and no memory error may be reported, and the
// gradients must match their analytic values.
// REQUIRES: lsan
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O0 %s -lm -o %t0 && %lsan_run %t0 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O2 %s -lm -o %t2 && %lsan_run %t2 2>&1 | FileCheck %s
// CHECK-NOT: LeakSanitizer
// CHECK-NOT: AddressSanitizer
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
#include <tapestry/thunk.h>

extern int enzyme_dup, enzyme_const;

/* f = sum_i x_i^2 (x_i + 1), through a block per element. */
void cubes(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) {
    double *t = (double *)malloc(2 * sizeof(double));
    t[0] = x[i] * x[i];
    t[1] = x[i] + 1;
    y[i] = t[0] * t[1];
    free(t);
  }
}

typedef void (*aug_fn)(const double *, double *, double *, double *, int,
                       void *);
typedef void (*rev_fn)(const double *, double *, double *, double *, int,
                       void *, void *);

int main(void) {
  const tapestry_thunk *t =
      __tapestry_thunk((void *)cubes, enzyme_dup, enzyme_dup, enzyme_const);
  check_close("cubes is reusable", t->reusable, 1, 0);
  double x[5] = {0.5, -1.5, 2, 0.25, -0.75}, dx[5], y[5], dy[5];
  for (int runs = 0; runs <= 3; runs++) {
    void *tape = tapestry_tape_new(t);
    ((aug_fn)t->augmented)(x, dx, y, dy, 5, tape);
    for (int k = 1; k <= runs; k++) {
      for (int i = 0; i < 5; i++) {
        dx[i] = 0;
        dy[i] = k;
      }
      ((rev_fn)t->reverse)(x, dx, y, dy, 5, tape, NULL);
      for (int i = 0; i < 5; i++)
        check_close("dx", dx[i], k * (3 * x[i] * x[i] + 2 * x[i]), 1e-13);
    }
    tapestry_tape_delete(t, tape);
  }
  return check_report();
}
