// Split mode (__enzyme_augmentfwd, then __enzyme_reverse) of a function that
// grows, with realloc, a block the caller's struct points to after reading
// its values: the adjoints of those values reach the shadow of the freed
// block, which the caller no longer sees, and the gradient came back 0 (an
// XFAIL until the augmented forward's call site tagged what it frees with
// its tape: the reverse that releases the tape checks those shadows and
// frees them, as one-shot mode does when its request ends). Blocks whose
// old values get no adjoint run and match the analytic gradient, also with
// two tapes alive at once, released in the other order. A thunk's tape
// (tapestry/thunk.h) is checked when tapestry_tape_delete releases it, and
// a tape in a caller's buffer (enzyme_allocated) by the reverse, which
// releases what such a tape holds.
// RUN: %clang -O0 %s -lm -o %t0
// RUN: not --crash %t0 lost 2>&1 | FileCheck %s --check-prefix=LOST
// RUN: %t0 ok | FileCheck %s
// RUN: not --crash %t0 thunk 2>&1 | FileCheck %s --check-prefix=LOST
// RUN: not --crash %t0 buffer 2>&1 | FileCheck %s --check-prefix=LOST
// RUN: %clang -O2 %s -lm -o %t2
// RUN: not --crash %t2 lost 2>&1 | FileCheck %s --check-prefix=LOST
// RUN: %t2 ok | FileCheck %s
// RUN: not --crash %t2 thunk 2>&1 | FileCheck %s --check-prefix=LOST
// RUN: not --crash %t2 buffer 2>&1 | FileCheck %s --check-prefix=LOST
// LOST: tapestry: the reverse derivative of 'grow_after_read' lost adjoints
// LOST-NOT: d/dx0
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
#include <string.h>
#include <tapestry/thunk.h>

extern int enzyme_dup, enzyme_allocated, enzyme_tape;
unsigned long __enzyme_augmentsize(void *, ...);
double __enzyme_augmentfwd_y(void *, ...);
typedef struct {
  void *tape;
  double primal;
} aug_d;
aug_d __enzyme_augmentfwd_d(void *, ...);
void __enzyme_reverse(void *, ...);

typedef struct {
  double *data;
  int n;
} Buf;

double grow_after_read(Buf *b) {
  double s = 0;
  for (int i = 0; i < b->n; i++)
    s += b->data[i] * b->data[i];
  b->data = realloc(b->data, (b->n + 8) * sizeof(double));
  b->data[b->n] = s;
  b->n += 1;
  return s * b->data[0];
}

/* Overwrites the caller's two values, then grows the block: a * a + sin a
   + a. */
double overwrite_then_grow(Buf *b, const double *pa) {
  double a = *pa;
  b->data[0] = a * a;
  b->data[1] = sin(a);
  b->data = realloc(b->data, 3 * sizeof(double));
  b->data[2] = a;
  b->n = 3;
  return b->data[0] + b->data[1] + b->data[2];
}

static Buf two_values(void) {
  Buf b = {malloc(2 * sizeof(double)), 2};
  b.data[0] = 5, b.data[1] = 7;
  return b;
}
static Buf two_zeros(void) {
  Buf b = {calloc(2, sizeof(double)), 2};
  return b;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "lost")) {
    Buf b = {malloc(2 * sizeof(double)), 2},
        db = {calloc(2, sizeof(double)), 2};
    b.data[0] = 1.5, b.data[1] = 2.0;
    aug_d r =
        __enzyme_augmentfwd_d((void *)grow_after_read, enzyme_dup, &b, &db);
    __enzyme_reverse((void *)grow_after_read, enzyme_dup, &b, &db, 1.0, r.tape);
    printf("d/dx0 = %g\n", db.data[0]);
    return 0;
  }
  if (argc > 1 && !strcmp(argv[1], "buffer")) {
    Buf b = {malloc(2 * sizeof(double)), 2},
        db = {calloc(2, sizeof(double)), 2};
    b.data[0] = 1.5, b.data[1] = 2.0;
    static _Alignas(16) char tape[4096];
    unsigned long n = __enzyme_augmentsize((void *)grow_after_read, enzyme_dup);
    __enzyme_augmentfwd_y((void *)grow_after_read, enzyme_allocated, n,
                          enzyme_tape, tape, enzyme_dup, &b, &db);
    __enzyme_reverse((void *)grow_after_read, enzyme_allocated, n, enzyme_tape,
                     tape, enzyme_dup, &b, &db, 1.0);
    printf("d/dx0 = %g\n", db.data[0]);
    return 0;
  }
  if (argc > 1 && !strcmp(argv[1], "thunk")) {
    Buf b = {malloc(2 * sizeof(double)), 2},
        db = {calloc(2, sizeof(double)), 2};
    b.data[0] = 1.5, b.data[1] = 2.0;
    const tapestry_thunk *t =
        __tapestry_thunk((void *)grow_after_read, enzyme_dup);
    void *tape = tapestry_tape_new(t);
    ((double (*)(Buf *, Buf *, void *))t->augmented)(&b, &db, tape);
    ((void (*)(Buf *, Buf *, double, void *, void *))t->reverse)(&b, &db, 1.0,
                                                                 tape, 0);
    tapestry_tape_delete(t, tape);
    printf("d/dx0 = %g\n", db.data[0]);
    return 0;
  }
  double a = 0.7, c = -0.4, da = 0, dc = 0;
  Buf b1 = two_values(), db1 = two_zeros(), b2 = two_values(),
      db2 = two_zeros();
  aug_d r1 = __enzyme_augmentfwd_d((void *)overwrite_then_grow, enzyme_dup,
                                   &b1, &db1, enzyme_dup, &a, &da);
  aug_d r2 = __enzyme_augmentfwd_d((void *)overwrite_then_grow, enzyme_dup,
                                   &b2, &db2, enzyme_dup, &c, &dc);
  check_close("primal", r1.primal, a * a + sin(a) + a, 1e-15);
  __enzyme_reverse((void *)overwrite_then_grow, enzyme_dup, &b1, &db1,
                   enzyme_dup, &a, &da, 1.0, r1.tape);
  __enzyme_reverse((void *)overwrite_then_grow, enzyme_dup, &b2, &db2,
                   enzyme_dup, &c, &dc, 1.0, r2.tape);
  check_close("d/da", da, 2 * a + cos(a) + 1, 1e-12);
  check_close("d/dc", dc, 2 * c + cos(c) + 1, 1e-12);
  free(b1.data), free(db1.data), free(b2.data), free(db2.data);
  return check_report();
}
