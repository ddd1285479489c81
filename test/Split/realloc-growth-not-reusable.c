// A buffer grown by realloc inside a loop (one block per iteration, each
// freed by the next realloc) is not the tape's, so the split is not
// reusable (issue 17 item 2): the reason names the variable and says what
// to change, at run time (a second reverse on one tape) and at compile time
// (a demanded reusable tape). Following the advice (one malloc before the
// loop) makes the tape reusable, and it replays (the control). One sweep of
// the realloc version and three of the control, against the analytic
// gradient.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O2 -g %s -lm -o %t2g && not %t2g misuse 2>&1 | FileCheck %s --check-prefix=MISUSE
// RUN: not %clang -O0 -g -DDEMAND %s -lm -o %t.demand 2>&1 | FileCheck %s --check-prefix=DEMAND
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// MISUSE: first reverse done
// MISUSE-NEXT: tapestry: the reverse of 'grown' ran a second time on the same tape, but its tape is not reusable: its reverse sweep frees the shadow of the variable 'g' (line [[#]]), which realloc grows inside a loop {{.*}}allocate it once before the loop with its largest size (malloc) instead of growing it. Run the augmented forward again (__enzyme_augmentfwd, a thunk's augmented) for a fresh tape.
// MISUSE-NOT: second reverse done
// DEMAND: error: tapestry: cannot give 'grown' a reusable tape (tapestry_reusable_tape): its reverse sweep frees the shadow of the variable 'g' (line [[#]]), which realloc grows inside a loop
// DEMAND-NOT: shadow pointers
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
#include <string.h>
#include <tapestry/thunk.h>

extern int enzyme_dup, enzyme_const, enzyme_nofree, tapestry_reusable_tape;
typedef struct {
  void *tape;
  double primal;
} aug_d;
aug_d __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

#define M 5
#define TOL 1e-12

/* s = sum_j sin(a_j) a_j, through a buffer grown by realloc. */
double grown(const double *a, int m) {
  double *g = NULL;
  for (int j = 0; j < m; j++) {
    g = (double *)realloc(g, (j + 1) * sizeof(double));
    g[j] = sin(a[j]);
  }
  double s = 0;
  for (int j = 0; j < m; j++)
    s += g[j] * a[j];
  free(g);
  return s;
}

/* The same with one block of the final size. */
double once(const double *a, int m) {
  double *g = (double *)malloc(m * sizeof(double));
  for (int j = 0; j < m; j++)
    g[j] = sin(a[j]);
  double s = 0;
  for (int j = 0; j < m; j++)
    s += g[j] * a[j];
  free(g);
  return s;
}

static const double a0[M] = {0.3, -1.1, 0.7, 2.0, -0.4};

int main(int argc, char **argv) {
#ifdef DEMAND
  const tapestry_thunk *td = __tapestry_thunk(
      (void *)grown, tapestry_reusable_tape, enzyme_dup, enzyme_const);
  (void)td;
#endif
  const tapestry_thunk *tg =
      __tapestry_thunk((void *)grown, enzyme_dup, enzyme_const);
  const tapestry_thunk *to =
      __tapestry_thunk((void *)once, enzyme_dup, enzyme_const);
  double want[M];
  for (int j = 0; j < M; j++)
    want[j] = sin(a0[j]) + a0[j] * cos(a0[j]);
  double a[M], da[M] = {0};
  memcpy(a, a0, sizeof a);
  aug_d r = __enzyme_augmentfwd((void *)grown, enzyme_dup, a, da,
                                enzyme_const, M);
  if (argc > 1 && !strcmp(argv[1], "misuse")) {
    __enzyme_reverse((void *)grown, enzyme_nofree, enzyme_dup, a, da,
                     enzyme_const, M, 1.0, r.tape);
    printf("first reverse done\n");
    fflush(stdout);
    __enzyme_reverse((void *)grown, enzyme_dup, a, da, enzyme_const, M, 1.0,
                     r.tape);
    printf("second reverse done\n");
    return 0;
  }
  check_close("grown is not reusable", tg->reusable, 0, 0);
  check_close("once is reusable", to->reusable, 1, 0);
  for (int j = 0; j < M; j++)
    a[j] = 42;
  __enzyme_reverse((void *)grown, enzyme_dup, a, da, enzyme_const, M, 1.0,
                   r.tape);
  for (int j = 0; j < M; j++)
    check_close("grown: da", da[j], want[j], TOL);

  memcpy(a, a0, sizeof a);
  memset(da, 0, sizeof da);
  aug_d r2 =
      __enzyme_augmentfwd((void *)once, enzyme_dup, a, da, enzyme_const, M);
  for (int j = 0; j < M; j++)
    a[j] = -3;
  for (int k = 1; k <= 3; k++) {
    memset(da, 0, sizeof da);
    if (k < 3)
      __enzyme_reverse((void *)once, enzyme_nofree, enzyme_dup, a, da,
                       enzyme_const, M, (double)k, r2.tape);
    else
      __enzyme_reverse((void *)once, enzyme_dup, a, da, enzyme_const, M,
                       (double)k, r2.tape);
    for (int j = 0; j < M; j++)
      check_close("once: replayed da", da[j], k * want[j], TOL);
  }
  return check_report();
}
