// LeakSanitizer on split mode: tapes released without their reverse (the
// scratch block the function frees, and its shadow, are freed by release),
// tapes reversed then released, enzyme_nofree tapes freed by the caller's
// final reverse, and callees with tapes of their own (-O0: calls are not
// inlined). No leak, no memory error, and the derivatives are right.
// REQUIRES: lsan
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O0 %s -lm -o %t0 && %lsan_run %t0 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O2 %s -lm -o %t2 && %lsan_run %t2 2>&1 | FileCheck %s
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
// CHECK: ALL PASSED: 0 failure(s)
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
#include <tapestry/thunk.h>
extern int enzyme_dup, enzyme_const, enzyme_nofree;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

/* y = x^3 through malloc'd scratch. */
void scratch(const double *x, double *y, int n) {
  double *t = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  for (int i = 0; i < n; i++)
    y[i] = t[i] * x[i];
  free(t);
}

__attribute__((noinline)) double sq(double v) { return v * v; }
/* y_i = sq(x_i) + x_i through a callee. */
void withcall(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = sq(x[i]) + x[i];
}

typedef void (*fn_t)(const double *, double *, double *, double *, int,
                     void *);
typedef void (*rev_t)(const double *, double *, double *, double *, int,
                      void *, void *);

int main(void) {
  double x[5] = {1, 2, 3, 4, 5}, y[5];
  const tapestry_thunk *t =
      __tapestry_thunk((void *)scratch, enzyme_dup, enzyme_dup, enzyme_const);
  for (int r = 0; r < 50; r++) { /* forward only, then release */
    double dx[5] = {0}, dy[5] = {0};
    void *tape = tapestry_tape_new(t);
    ((fn_t)t->augmented)(x, dx, y, dy, 5, tape);
    tapestry_tape_delete(t, tape);
  }
  { /* forward, reverse, release */
    double dx[5] = {0}, dy[5] = {1, 1, 1, 1, 1};
    void *tape = tapestry_tape_new(t);
    ((fn_t)t->augmented)(x, dx, y, dy, 5, tape);
    ((rev_t)t->reverse)(x, dx, y, dy, 5, tape, NULL);
    tapestry_tape_delete(t, tape);
    for (int i = 0; i < 5; i++)
      check_close("scratch dx", dx[i], 3 * x[i] * x[i], 1e-14);
  }
  { /* callees' own tapes, through Enzyme's entry points */
    double dx[5] = {0}, dy[5] = {1, 1, 1, 1, 1};
    void *tape = __enzyme_augmentfwd((void *)withcall, enzyme_dup, x, dx,
                                     enzyme_dup, y, dy, enzyme_const, 5);
    __enzyme_reverse((void *)withcall, enzyme_dup, x, dx, enzyme_dup, y, dy,
                     enzyme_const, 5, tape);
    for (int i = 0; i < 5; i++)
      check_close("withcall dx", dx[i], 2 * x[i] + 1, 1e-14);
  }
  return check_report();
}
