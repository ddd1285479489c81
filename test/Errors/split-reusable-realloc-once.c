// A scratch block grown once by realloc outside any loop, its address only
// ever in a local: a demanded reusable tape is refused because realloc
// replaces the block (lowered to malloc, copy and free, the free waiting
// for the reverse sweep), and the error says so. It said the address "is
// stored or passed where it may be kept" and advised keeping it in local
// variables, which it already was (split21 F5).
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
#include <stdlib.h>
#include <tapestry/thunk.h>
extern int enzyme_dup, enzyme_const;

void sq(const double *x, double *y, int n) {
  double *buf = calloc(2, sizeof(double));
  buf = realloc(buf, sizeof(double) * n);
  for (int i = 0; i < n; i++)
    buf[i] = x[i] * x[i];
  for (int i = 0; i < n; i++)
    y[i] = buf[i];
  free(buf);
}

const tapestry_thunk *get(void) {
  // CHECK: error: tapestry: cannot give 'sq' a reusable tape (tapestry_reusable_tape): its reverse sweep frees the variable 'buf' (line [[#@LINE-10]]), a heap block that realloc replaces by a new one (the old block's free waits for the reverse sweep), and its shadow, {{.*}}; allocate it once with the largest size it needs (malloc) instead of growing it with realloc
  // CHECK-NOT: where it may be kept
  return __tapestry_thunk((void *)sq, tapestry_reusable_tape, enzyme_dup,
                          enzyme_dup, enzyme_const);
}
