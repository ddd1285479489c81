// Heap blocks allocated on only some paths, owned by a reusable tape: the
// forward half records each block as it allocates it, the reverse runs
// three times on one tape with different seeds, and the release frees what
// was recorded (nothing where no block was allocated). Shapes: `n ? malloc
// : NULL` freed under `if (p)` (std::vector's at -O2, written in C), and a
// block allocated after an early return. Under AddressSanitizer with leak
// detection: no leak, no double free, no use after free; the gradients are
// analytic. At -O0 the sanitizer runs on code that still names the
// tapestry_reusable_tape marker, which must not be left undefined.
// REQUIRES: lsan
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O0 %s -lm %tapestry_rt -o %t0 && %lsan_run %t0 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O2 %s -lm %tapestry_rt -o %t2 && %lsan_run %t2 2>&1 | FileCheck %s
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK-NOT: ERROR: LeakSanitizer
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
#include <string.h>
#include <tapestry/thunk.h>

extern int enzyme_dup, enzyme_const;

/* sum_i sq_i^2 with sq_i = sin(x_i), through a block only when n > 0. */
double maybe_block(const double *x, int n) {
  double *sq = n ? (double *)malloc(n * sizeof(double)) : NULL;
  for (int i = 0; i < n; i++)
    sq[i] = sin(x[i]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sq[i] * sq[i];
  if (sq)
    free(sq);
  return s;
}

/* x_0^3 when x_0 > 5, else sum_i exp(x_i) x_i through a block allocated
   after that early return. */
double after_return(const double *x, int n) {
  if (x[0] > 5)
    return x[0] * x[0] * x[0];
  double *e = (double *)calloc(n, sizeof(double));
  for (int i = 0; i < n; i++)
    e[i] = exp(x[i]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += e[i] * x[i];
  free(e);
  return s;
}

typedef double (*aug_fn)(const double *, double *, int, void *);
typedef void (*rev_fn)(const double *, double *, int, double, void *, void *);

/* One forward half at x0, the inputs overwritten, three seeds. */
static void replay(const char *name, const tapestry_thunk *t,
                   const double *x0, int n, const double *want) {
  double x[4], dx[4];
  memcpy(x, x0, sizeof x);
  void *tape = tapestry_tape_new(t);
  ((aug_fn)t->augmented)(x, dx, n, tape);
  for (int i = 0; i < 4; i++)
    x[i] = 100;
  for (int k = 1; k <= 3; k++) {
    memset(dx, 0, sizeof dx);
    ((rev_fn)t->reverse)(x, dx, n, 0.5 * k, tape, NULL);
    for (int i = 0; i < 4; i++)
      check_close(name, dx[i], i < n ? 0.5 * k * want[i] : 0.0, 1e-12);
  }
  tapestry_tape_delete(t, tape);
}

int main(void) {
  const tapestry_thunk *tm = __tapestry_thunk(
      (void *)maybe_block, enzyme_dup, enzyme_const, tapestry_reusable_tape);
  const tapestry_thunk *ta = __tapestry_thunk(
      (void *)after_return, enzyme_dup, enzyme_const, tapestry_reusable_tape);
  check_close("maybe_block reusable", tm->reusable, 1, 0);
  check_close("after_return reusable", ta->reusable, 1, 0);
  const double x0[4] = {0.4, -1.2, 2.1, 0.7}, big[4] = {6, 1, 2, 3};
  double wm[4], wa[4], wb[4] = {3 * 36, 0, 0, 0};
  for (int i = 0; i < 4; i++) {
    wm[i] = 2 * sin(x0[i]) * cos(x0[i]);
    wa[i] = exp(x0[i]) * (1 + x0[i]);
  }
  for (int n = 0; n <= 4; n += 2)
    replay("maybe_block: dx", tm, x0, n, wm);
  replay("after_return: dx", ta, x0, 4, wa);
  replay("after_return, early: dx", ta, big, 4, wb);
  return check_report();
}
