// Heap scratch the tape cannot own (issue 17 item 2): a block allocated
// inside a loop (one per iteration) whose address the function also stores
// in a global. The reason names the variable, says why and what to change,
// at run time (a second reverse on one tape) and at compile time (a
// demanded reusable tape). The same block kept in local variables only is
// the tape's now (the forward half links the blocks into a list), and
// replays with three seeds, as does one block allocated before the loop. A
// block allocated on only some paths (after an early return) is the
// tape's too (the forward half records it as it allocates it), and it
// replays on both paths, as does the same block allocated first. Gradients
// are analytic.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O2 -g %s -lm -o %t2g && not %t2g loop 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: not %clang -O0 -g -DDEMAND_LOOP %s -lm -o %t.d1 2>&1 | FileCheck %s --check-prefix=DEMAND-LOOP
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// LOOP: first reverse done
// LOOP-NEXT: tapestry: the reverse of 'kept' ran a second time on the same tape, but its tape is not reusable: its reverse sweep frees the variable 's' (line [[#]]), a heap block allocated inside a loop (one per iteration), whose address is stored or passed where it may be kept, and its shadow, so that a second reverse would not find them: the tape owns only heap blocks that the function frees itself, at its end or at the end of the loop iteration that allocated them, and whose address it keeps in local variables; keep its address in local variables only. Run the augmented forward again (__enzyme_augmentfwd, a thunk's augmented) for a fresh tape.
// LOOP-NOT: second reverse done
// DEMAND-LOOP: error: tapestry: cannot give 'kept' a reusable tape (tapestry_reusable_tape): its reverse sweep frees the variable 's' (line [[#]]), a heap block allocated inside a loop (one per iteration), whose address is stored or passed where it may be kept
// DEMAND-LOOP-NOT: shadow pointers
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

/* sum_i sin(a_i) sin(2 a_i) + exp(sin(3 a_i)), through a block per
   iteration. */
double per_iteration(const double *a, int m) {
  double acc = 0;
  for (int i = 0; i < m; i++) {
    double *s = (double *)malloc(3 * sizeof(double));
    for (int j = 0; j < 3; j++)
      s[j] = sin(a[i] * (j + 1));
    acc += s[0] * s[1] + exp(s[2]);
    free(s);
  }
  return acc;
}

/* The same, the last block's address also kept in a global. */
double *last_scratch;
double kept(const double *a, int m) {
  double acc = 0;
  for (int i = 0; i < m; i++) {
    double *s = (double *)malloc(3 * sizeof(double));
    last_scratch = s;
    for (int j = 0; j < 3; j++)
      s[j] = sin(a[i] * (j + 1));
    acc += s[0] * s[1] + exp(s[2]);
    free(s);
  }
  return acc;
}

/* The same through one block allocated before the loop. */
double hoisted(const double *a, int m) {
  double acc = 0;
  double *s = (double *)malloc(3 * sizeof(double));
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < 3; j++)
      s[j] = sin(a[i] * (j + 1));
    acc += s[0] * s[1] + exp(s[2]);
  }
  free(s);
  return acc;
}

/* sum_j sin(a_j) a_j, or a_0^2 when a_0 is large: the block is allocated
   after the early return. */
double after_return(const double *a, int m) {
  if (a[0] > 5)
    return a[0] * a[0];
  double *g = (double *)malloc(m * sizeof(double));
  for (int j = 0; j < m; j++)
    g[j] = sin(a[j]);
  double s = 0;
  for (int j = 0; j < m; j++)
    s += g[j] * a[j];
  free(g);
  return s;
}

/* The same with the block allocated first, freed on both paths. */
double at_start(const double *a, int m) {
  double *g = (double *)malloc(m * sizeof(double));
  if (a[0] > 5) {
    free(g);
    return a[0] * a[0];
  }
  for (int j = 0; j < m; j++)
    g[j] = sin(a[j]);
  double s = 0;
  for (int j = 0; j < m; j++)
    s += g[j] * a[j];
  free(g);
  return s;
}

static const double a0[M] = {0.3, -1.1, 0.7, 2.0, -0.4};

/* A second reverse on one tape of F, which must stop the program. (Macros,
   so that each request names its function.) */
#define MISUSE(F)                                                              \
  do {                                                                         \
    double a[M], da[M] = {0};                                                  \
    memcpy(a, a0, sizeof a);                                                   \
    aug_d r =                                                                  \
        __enzyme_augmentfwd((void *)F, enzyme_dup, a, da, enzyme_const, M);    \
    __enzyme_reverse((void *)F, enzyme_nofree, enzyme_dup, a, da,              \
                     enzyme_const, M, 1.0, r.tape);                            \
    printf("first reverse done\n");                                           \
    fflush(stdout);                                                            \
    __enzyme_reverse((void *)F, enzyme_dup, a, da, enzyme_const, M, 1.0,       \
                     r.tape);                                                  \
    printf("second reverse done\n");                                          \
  } while (0)

/* One sweep of F, inputs overwritten after the forward half. */
#define ONCE(WHAT, F, WANT)                                                    \
  do {                                                                         \
    double a[M], da[M] = {0};                                                  \
    memcpy(a, a0, sizeof a);                                                   \
    aug_d r =                                                                  \
        __enzyme_augmentfwd((void *)F, enzyme_dup, a, da, enzyme_const, M);    \
    for (int j = 0; j < M; j++)                                                \
      a[j] = 42;                                                               \
    __enzyme_reverse((void *)F, enzyme_dup, a, da, enzyme_const, M, 1.0,       \
                     r.tape);                                                  \
    for (int j = 0; j < M; j++)                                                \
      check_close(WHAT, da[j], WANT[j], TOL);                                  \
  } while (0)

/* Three sweeps of F on one tape with seeds 1, 2, 3. */
#define REPLAYED(WHAT, F, WANT)                                                \
  do {                                                                         \
    double a[M], da[M] = {0};                                                  \
    memcpy(a, a0, sizeof a);                                                   \
    aug_d r =                                                                  \
        __enzyme_augmentfwd((void *)F, enzyme_dup, a, da, enzyme_const, M);    \
    for (int j = 0; j < M; j++)                                                \
      a[j] = -3;                                                               \
    for (int k = 1; k <= 3; k++) {                                             \
      memset(da, 0, sizeof da);                                                \
      if (k < 3)                                                               \
        __enzyme_reverse((void *)F, enzyme_nofree, enzyme_dup, a, da,          \
                         enzyme_const, M, (double)k, r.tape);                  \
      else                                                                     \
        __enzyme_reverse((void *)F, enzyme_dup, a, da, enzyme_const, M,        \
                         (double)k, r.tape);                                   \
      for (int j = 0; j < M; j++)                                              \
        check_close(WHAT, da[j], k * WANT[j], TOL);                            \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
#ifdef DEMAND_LOOP
  (void)__tapestry_thunk((void *)kept, tapestry_reusable_tape, enzyme_dup,
                         enzyme_const);
#endif
  (void)__tapestry_thunk((void *)per_iteration, tapestry_reusable_tape,
                         enzyme_dup, enzyme_const);
  // Demanded: compiles.
  (void)__tapestry_thunk((void *)after_return, tapestry_reusable_tape,
                         enzyme_dup, enzyme_const);
  if (argc > 1 && !strcmp(argv[1], "loop")) {
    MISUSE(kept);
    return 0;
  }
  const tapestry_thunk *tp =
      __tapestry_thunk((void *)per_iteration, enzyme_dup, enzyme_const);
  const tapestry_thunk *th =
      __tapestry_thunk((void *)hoisted, enzyme_dup, enzyme_const);
  const tapestry_thunk *te =
      __tapestry_thunk((void *)after_return, enzyme_dup, enzyme_const);
  const tapestry_thunk *ts =
      __tapestry_thunk((void *)at_start, enzyme_dup, enzyme_const);
  const tapestry_thunk *tk =
      __tapestry_thunk((void *)kept, enzyme_dup, enzyme_const);
  check_close("per_iteration is reusable", tp->reusable, 1, 0);
  check_close("kept is not reusable", tk->reusable, 0, 0);
  check_close("hoisted is reusable", th->reusable, 1, 0);
  check_close("after_return is reusable", te->reusable, 1, 0);
  check_close("at_start is reusable", ts->reusable, 1, 0);

  double wl[M], we[M];
  for (int j = 0; j < M; j++) {
    double x = a0[j];
    wl[j] = cos(x) * sin(2 * x) + 2 * sin(x) * cos(2 * x) +
            3 * cos(3 * x) * exp(sin(3 * x));
    we[j] = sin(x) + x * cos(x);
  }
  ONCE("kept: da", kept, wl);
  REPLAYED("per_iteration: replayed da", per_iteration, wl);
  REPLAYED("hoisted: replayed da", hoisted, wl);
  REPLAYED("after_return: replayed da", after_return, we);
  REPLAYED("at_start: replayed da", at_start, we);
  // The early return taken: no block allocated, d(a_0^2) = 2 a_0.
  {
    double a[M] = {6, 1, 2, 3, 4}, da[M] = {0};
    aug_d r = __enzyme_augmentfwd((void *)after_return, enzyme_dup, a, da,
                                  enzyme_const, M);
    a[0] = 0;
    for (int k = 1; k <= 2; k++) {
      memset(da, 0, sizeof da);
      if (k < 2)
        __enzyme_reverse((void *)after_return, enzyme_nofree, enzyme_dup, a,
                         da, enzyme_const, M, (double)k, r.tape);
      else
        __enzyme_reverse((void *)after_return, enzyme_dup, a, da,
                         enzyme_const, M, (double)k, r.tape);
      check_close("after_return, early: da_0", da[0], k * 12.0, TOL);
      check_close("after_return, early: da_1", da[1], 0, TOL);
    }
  }
  return check_report();
}
