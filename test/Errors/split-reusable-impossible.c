// Demanding a reusable tape (tapestry_reusable_tape) for a function whose
// reverse cannot be replayed is a compile error that says why.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
#include <stdlib.h>
#include <tapestry/thunk.h>
extern int enzyme_dup, enzyme_const;
/* One scratch block per element, which the tape does not own (it owns a
 * block allocated outside loops: test/Split/reusable-heap-scratch.c). */
void scratch(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) {
    double *t = malloc(2 * sizeof(double));
    t[0] = x[i] * x[i];
    t[1] = x[i];
    y[i] = t[0] * t[1];
    free(t);
  }
}
const tapestry_thunk *get(void) {
  // CHECK: error: tapestry: cannot give 'scratch' a reusable tape (tapestry_reusable_tape): its reverse sweep frees the variable 't' (line [[#]]), a heap block allocated inside a loop (one per iteration), and its shadow{{.*}}; allocate it once, before the loop, with the largest size it needs, and reuse it in each iteration
  return __tapestry_thunk((void *)scratch, tapestry_reusable_tape, enzyme_dup,
                          enzyme_dup, enzyme_const);
}
