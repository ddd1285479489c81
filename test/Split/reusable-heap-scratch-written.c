// A heap block whose reverse sweep may write it (a hand-written reverse
// that uses it as workspace) stays the reverse's to free
// and the split is not reusable (issue 17 item 1), with the reason naming
// the block; a demanded reusable tape is a compile error saying so. The
// same block filled in place is the tape's and replays (the control).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O2 -g %s -lm -o %t2g && not %t2g misuse 2>&1 | FileCheck %s --check-prefix=MISUSE
// RUN: not %clang -O1 -g -DDEMAND %s -lm -o %t.demand 2>&1 | FileCheck %s --check-prefix=DEMAND
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// MISUSE: first reverse done
// MISUSE-NEXT: tapestry: the reverse of 'written' ran a second time on the same tape, but its tape is not reusable: {{.*}}its reverse sweep may write a heap block that the forward half allocated (the variable 'g' (line [[#]]): it passes it to 'fill_rev', which may write it){{.*}}. Run the augmented forward again (__enzyme_augmentfwd, a thunk's augmented) for a fresh tape.
// MISUSE-NOT: second reverse done
// DEMAND: error: tapestry: cannot give 'written' a reusable tape (tapestry_reusable_tape): {{.*}}its reverse sweep may write a heap block that the forward half allocated (the variable 'g'
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
#include <string.h>
#include <tapestry/thunk.h>

extern int enzyme_dup, enzyme_const, enzyme_nofree;
typedef struct {
  void *tape;
  double primal;
} aug_d;
aug_d __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

#define M 4
#define TOL 1e-12

/* Stays a call: its reverse receives the block. Its hand-written reverse
   uses the block as workspace (it really writes it, which a derivative
   Tapestry synthesises would not: those only read the primal memory they
   are given). */
__attribute__((noinline)) void fill(double *g, const double *a, int m) {
  for (int j = 0; j < m; j++)
    g[j] = sin(a[j]);
}
void *fill_aug(double *g, double *dg, const double *a, double *da, int m) {
  (void)dg;
  (void)da;
  fill(g, a, m);
  return 0;
}
void fill_rev(double *g, double *dg, const double *a, double *da, int m,
              void *tape) {
  (void)tape;
  for (int j = 0; j < m; j++) {
    g[j] = cos(a[j]);
    da[j] += g[j] * dg[j];
    dg[j] = 0;
  }
}
void *__enzyme_register_gradient_fill[3] = {(void *)fill, (void *)fill_aug,
                                            (void *)fill_rev};

/* s = sum_j sin(a_j) a_j */
__attribute__((noinline)) double written(double *a, int m) {
  double *g = malloc(m * sizeof(double));
  fill(g, a, m);
  double s = 0;
  for (int j = 0; j < m; j++)
    s += g[j] * a[j];
  free(g);
  return s;
}

static double dsum(double x) { return cos(x) * x + sin(x); }

static const double a0[M] = {0.3, -1.1, 0.7, 2.0};

#ifdef DEMAND
int main(void) {
  return __tapestry_thunk((void *)written, tapestry_reusable_tape, enzyme_dup,
                          enzyme_const)
      ->reusable;
}
#else
int main(int argc, char **argv) {
  double a[M], da[M] = {0};
  memcpy(a, a0, sizeof a);
  aug_d r = __enzyme_augmentfwd((void *)written, enzyme_dup, a, da,
                                enzyme_const, M);
  if (argc > 1 && !strcmp(argv[1], "misuse")) {
    __enzyme_reverse((void *)written, enzyme_nofree, enzyme_dup, a, da,
                     enzyme_const, M, 1.0, r.tape);
    fprintf(stderr, "first reverse done\n");
    __enzyme_reverse((void *)written, enzyme_nofree, enzyme_dup, a, da,
                     enzyme_const, M, 1.0, r.tape);
    fprintf(stderr, "second reverse done\n");
    return 0;
  }
  const tapestry_thunk *t =
      __tapestry_thunk((void *)written, enzyme_dup, enzyme_const);
  check_close("written is not reusable", t->reusable, 0, 0);
  /* Once per tape it is right. */
  __enzyme_reverse((void *)written, enzyme_dup, a, da, enzyme_const, M, 2.0,
                   r.tape);
  for (int j = 0; j < M; j++)
    check_close("written: da", da[j], 2.0 * dsum(a0[j]), TOL);
  return check_report();
}
#endif
