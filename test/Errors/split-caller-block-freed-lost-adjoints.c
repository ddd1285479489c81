// Split mode (__enzyme_augmentfwd, then __enzyme_reverse) of a function that
// grows, with realloc, a block the caller's struct points to after reading
// its values: the adjoints of those values reach the shadow of the freed
// block, which the caller no longer sees, and the gradient comes back 0.
// One-shot reverse mode stops with a message
// (caller-block-freed-lost-adjoints.c); split mode has no point where the
// request ends for the check to run (the shadows of the caller's freed
// blocks are not released either).
// XFAIL: *
// RUN: %clang -O2 %s -lm -o %t
// RUN: not --crash %t 2>&1 | FileCheck %s
// CHECK: tapestry: the reverse derivative of 'grow_after_read' lost adjoints
#include <stdio.h>
#include <stdlib.h>

extern int enzyme_dup;
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

int main(void) {
  Buf b = {malloc(2 * sizeof(double)), 2}, db = {calloc(2, sizeof(double)), 2};
  b.data[0] = 1.5, b.data[1] = 2.0;
  aug_d r = __enzyme_augmentfwd_d((void *)grow_after_read, enzyme_dup, &b, &db);
  __enzyme_reverse((void *)grow_after_read, enzyme_dup, &b, &db, 1.0, r.tape);
  // d/dx0 = 2 x0 x0 + s with s = x0^2 + x1^2
  printf("d/dx0 = %g (expected %g)\n", db.data[0], 2 * 1.5 * 1.5 + 6.25);
  return 0;
}
