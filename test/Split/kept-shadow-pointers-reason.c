// A reverse that reads pointers the forward half loaded from a shadow (an
// array of row pointers passed enzyme_dup) keeps them on the tape: a
// second reverse would accumulate into the rows they pointed to when the
// forward half ran, whatever shadow it is given. The reason names the
// parameter the pointers come from, the line, and what to change, at
// compile time (a demanded reusable tape) and at run time (a second
// reverse on one tape); before, it named nothing. The one-shot derivative
// through the same split is checked against the analytic gradient.
// RUN: %clang -O2 -g %s -lm -o %t && %t | FileCheck %s
// RUN: not %t twice 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: %clang -O0 -g %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: not %clang -O2 -g -DDEMAND %s -lm -o %t.d 2>&1 | FileCheck %s --check-prefix=DEMAND
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// TWICE: first reverse done
// TWICE-NEXT: tapestry: the reverse of 'rowsum' ran a second time on the same tape, but its tape is not reusable: the tape keeps the pointers read from the shadow of parameter 1 ('rows') (line 34), and a second reverse would accumulate into the memory they pointed to when the forward half ran, whatever shadow it is given; pass the data as one flat array instead of an array of pointers, or run __enzyme_augmentfwd again before each reverse. Run the augmented forward again (__enzyme_augmentfwd, a thunk's augmented) for a fresh tape.
// DEMAND: error: tapestry: cannot give 'rowsum' a reusable tape (tapestry_reusable_tape): the tape keeps the pointers read from the shadow of parameter 1 ('rows') (line 34), and a second reverse would accumulate into the memory they pointed to when the forward half ran, whatever shadow it is given; pass the data as one flat array instead of an array of pointers, or run __enzyme_augmentfwd again before each reverse
#include "../Integration/Inputs/check.h"
#include <string.h>
#include <tapestry/thunk.h>

extern int enzyme_dup, enzyme_const, enzyme_nofree;
typedef struct {
  void *tape;
  double primal;
} aug_d;
aug_d __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

/* sum_i sin(rows[i][0]) rows[i][1] */
double rowsum(double **rows, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sin(rows[i][0]) * rows[i][1];
  return s;
}

int main(int argc, char **argv) {
#ifdef DEMAND
  (void)__tapestry_thunk((void *)rowsum, enzyme_dup, enzyme_const,
                         tapestry_reusable_tape);
#endif
  double r0[2] = {0.3, 2.0}, r1[2] = {-1.1, 0.5}, r2[2] = {0.7, -3.0};
  double d0[2] = {0}, d1[2] = {0}, d2[2] = {0};
  double *rows[3] = {r0, r1, r2}, *drows[3] = {d0, d1, d2};
  aug_d a = __enzyme_augmentfwd((void *)rowsum, enzyme_dup, rows, drows,
                                enzyme_const, 3);
  if (argc > 1 && !strcmp(argv[1], "twice")) {
    __enzyme_reverse((void *)rowsum, enzyme_nofree, enzyme_dup, rows, drows,
                     enzyme_const, 3, 1.0, a.tape);
    printf("first reverse done\n");
    fflush(stdout);
    __enzyme_reverse((void *)rowsum, enzyme_dup, rows, drows, enzyme_const, 3,
                     1.0, a.tape);
    printf("second reverse done\n");
    return 0;
  }
  __enzyme_reverse((void *)rowsum, enzyme_dup, rows, drows, enzyme_const, 3,
                   2.0, a.tape);
  double *r[3] = {r0, r1, r2}, *d[3] = {d0, d1, d2};
  for (int i = 0; i < 3; i++) {
    check_close("d rows[i][0]", d[i][0], 2 * cos(r[i][0]) * r[i][1], 1e-12);
    check_close("d rows[i][1]", d[i][1], 2 * sin(r[i][0]), 1e-12);
  }
  return check_report();
}
