// Demanding a reusable tape (tapestry_reusable_tape) for a function whose
// reverse cannot be replayed is a compile error that says why.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
#include <stdlib.h>
#include <tapestry/thunk.h>
extern int enzyme_dup, enzyme_const;
/* Scratch grown by realloc, one element per iteration: each realloc frees
 * the old block, which the tape does not own (it owns blocks the function
 * frees itself: test/Split/reusable-heap-scratch.c). */
void scratch(const double *x, double *y, int n) {
  double *t = NULL;
  for (int i = 0; i < n; i++) {
    t = realloc(t, (i + 1) * sizeof(double));
    t[i] = x[i] * x[i];
    y[i] = t[i] * x[i];
  }
  free(t);
}
const tapestry_thunk *get(void) {
  // CHECK: error: tapestry: cannot give 'scratch' a reusable tape (tapestry_reusable_tape): its reverse sweep frees the shadow of the variable 't' (line [[#]]), which realloc grows inside a loop (each realloc allocates a new block and frees the old one), so that a second reverse would not find it: the tape owns only heap blocks that the function frees itself, at its end or at the end of the loop iteration that allocated them, and whose address it keeps in local variables; allocate it once before the loop with its largest size (malloc) instead of growing it
  return __tapestry_thunk((void *)scratch, tapestry_reusable_tape, enzyme_dup,
                          enzyme_dup, enzyme_const);
}
