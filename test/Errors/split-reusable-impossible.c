// Demanding a reusable tape (tapestry_reusable_tape) for a function whose
// reverse cannot be replayed is a compile error that says why.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
#include <stdlib.h>
#include <tapestry/thunk.h>
extern int enzyme_dup, enzyme_const;
void scratch(const double *x, double *y, int n) {
  double *t = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  for (int i = 0; i < n; i++)
    y[i] = t[i] * x[i];
  free(t);
}
const tapestry_thunk *get(void) {
  // CHECK: error: tapestry: cannot give 'scratch' a reusable tape (tapestry_reusable_tape): its reverse sweep frees memory that the forward half allocated
  return __tapestry_thunk((void *)scratch, tapestry_reusable_tape, enzyme_dup,
                          enzyme_dup, enzyme_const);
}
