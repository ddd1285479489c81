// A demanded reusable tape refused because the tape keeps addresses into
// the shadow of a local array indexed by a running counter (a value stack,
// st[sp++] = p[k]): the error names the array and says what to change. It
// said "the tape keeps shadow pointers computed by the forward half" and
// named nothing (split21 F7).
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
#include <math.h>
#include <tapestry/thunk.h>
extern int enzyme_dup, enzyme_const;

double f(const int *code, const double *p, int n) {
  double st[16];
  int sp = 0;
  for (int i = 0; i < n; i++) {
    if (code[i] >= 0)
      st[sp++] = p[code[i]];
    else {
      sp--;
      st[sp - 1] *= sin(st[sp]);
    }
  }
  return st[sp - 1];
}

const tapestry_thunk *get(void) {
  // CHECK: error: tapestry: cannot give 'f' a reusable tape (tapestry_reusable_tape): the tape keeps addresses into the shadow of the variable 'st' as the forward half computed them {{.*}}; index it with a loop counter, or run __enzyme_augmentfwd again before each reverse
  return __tapestry_thunk((void *)f, tapestry_reusable_tape, enzyme_const,
                          enzyme_dup, enzyme_const);
}
