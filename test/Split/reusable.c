// Reusable tapes: the compiler says per request whether the reverse may run
// again on one tape (tapestry_thunk.reusable), one forward then serves many
// reverse sweeps with different seeds, and running a reverse that is not
// reusable twice on one tape stops with a message instead of wrong numbers.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: not %t0 misuse 2>&1 | FileCheck %s --check-prefix=MISUSE
// RUN: not %t2 misuse 2>&1 | FileCheck %s --check-prefix=MISUSE
// RUN: not %t2 stale 2>&1 | FileCheck %s --check-prefix=STALE
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// MISUSE: first reverse done
// MISUSE-NEXT: tapestry: the reverse of 'grow' ran a second time on the same tape, but its tape is not reusable: its reverse sweep frees the shadow of {{.*}}, which realloc grows inside a loop {{.*}}. Run the augmented forward again (__enzyme_augmentfwd, a thunk's augmented) for a fresh tape.
// MISUSE-NOT: second reverse done
// STALE: tapestry: the tape passed to the reverse of 'sinsum' was not filled by its augmented forward (__enzyme_augmentfwd, a thunk's augmented; with the same activities), or was freed by an earlier reverse or __enzyme_fwdsplit (pass enzyme_nofree to every one of them on a tape but the last).
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
#include <string.h>
#include <tapestry/thunk.h>

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_nofree;
typedef struct {
  void *tape;
  double primal;
} aug_d;
aug_d __enzyme_augmentfwd_d(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
double __enzyme_reverse_d(void *, ...);
void __enzyme_reverse(void *, ...);
double __enzyme_autodiff(void *, ...);
int __enzyme_augmentsize(void *, ...);

#define N 5
#define TOL 1e-12

__attribute__((noinline)) double sinsum(const double *x, int n, double a) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sin(a * x[i]) * x[i];
  return s;
}

/* Scratch memory allocated in a loop (one block per element): the tape
 * owns the blocks (they are linked into a list as the forward half
 * allocates them), so the reverse may run again. */
__attribute__((noinline)) void scratch(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) {
    double *t = malloc(2 * sizeof(double));
    t[0] = x[i] * x[i];
    t[1] = x[i];
    y[i] = t[0] * t[1];
    free(t);
  }
}

/* A buffer grown by realloc in a loop: its reverse sweep frees the old
 * blocks' shadows, which the tape does not own: not replayable. */
__attribute__((noinline)) void grow(const double *x, double *y, int n) {
  double *t = NULL;
  for (int i = 0; i < n; i++) {
    t = realloc(t, (i + 1) * sizeof(double));
    t[i] = x[i] * x[i];
  }
  for (int i = 0; i < n; i++)
    y[i] = t[i] * x[i];
  free(t);
}

struct node {
  double v;
  struct node *next;
};
/* The reverse walks shadow pointers the forward half loaded: the tape keeps
 * them, so it is not replayable with other shadows. */
__attribute__((noinline)) double listsum(struct node *l) {
  double s = 0;
  for (; l; l = l->next)
    s += l->v * l->v;
  return s;
}

typedef double (*sinsum_aug)(const double *, double *, int, double, void *);
typedef void (*sinsum_rev)(const double *, double *, int, double, double,
                           void *, double *);

int main(int argc, char **argv) {
  double x[N] = {0.3, -0.1, 0.7, 0.2, -0.5};
  const double a = 0.9;
  if (argc > 1 && !strcmp(argv[1], "misuse")) {
    double y[N], dy[N], dx[N] = {0};
    for (int i = 0; i < N; i++)
      dy[i] = 1;
    void *tape = __enzyme_augmentfwd((void *)grow, enzyme_dup, x, dx,
                                     enzyme_dup, y, dy, enzyme_const, N);
    __enzyme_reverse((void *)grow, enzyme_nofree, enzyme_dup, x, dx,
                     enzyme_dup, y, dy, enzyme_const, N, tape);
    fprintf(stderr, "first reverse done\n");
    __enzyme_reverse((void *)grow, enzyme_nofree, enzyme_dup, x, dx,
                     enzyme_dup, y, dy, enzyme_const, N, tape);
    fprintf(stderr, "second reverse done\n");
    return 0;
  }
  if (argc > 1 && !strcmp(argv[1], "stale")) {
    double dx[N] = {0};
    aug_d r = __enzyme_augmentfwd_d((void *)sinsum, enzyme_dup, x, dx,
                                    enzyme_const, N, enzyme_out, a);
    memset(r.tape, 0, 8); /* not a tape any more */
    __enzyme_reverse_d((void *)sinsum, enzyme_dup, x, dx, enzyme_const, N,
                       enzyme_out, a, 1.0, r.tape);
    return 0;
  }

  const tapestry_thunk *ts = __tapestry_thunk((void *)sinsum, enzyme_dup,
                                              enzyme_const, enzyme_out);
  const tapestry_thunk *tc = __tapestry_thunk((void *)scratch, enzyme_dup,
                                              enzyme_dup, enzyme_const);
  const tapestry_thunk *tg = __tapestry_thunk((void *)grow, enzyme_dup,
                                              enzyme_dup, enzyme_const);
  const tapestry_thunk *tl = __tapestry_thunk((void *)listsum, enzyme_dup);
  check_close("sinsum is reusable", ts->reusable, 1, 0);
  check_close("scratch is reusable", tc->reusable, 1, 0);
  check_close("grow is not reusable", tg->reusable, 0, 0);
  check_close("listsum is not reusable", tl->reusable, 0, 0);
  check_close("thunk tape size == __enzyme_augmentsize", ts->tape_bytes,
              __enzyme_augmentsize((void *)sinsum, enzyme_dup, enzyme_const,
                                   enzyme_out),
              0);

  /* The analytic gradient at x (seed 1). */
  double g[N], ga = 0;
  for (int i = 0; i < N; i++) {
    g[i] = sin(a * x[i]) + a * x[i] * cos(a * x[i]);
    ga += x[i] * x[i] * cos(a * x[i]);
  }

  /* One forward through the thunk, ten reverse sweeps with seeds 1..10:
   * each equals a full sweep (one-shot gradient times the seed). */
  {
    double xs[N], dx[N] = {0};
    memcpy(xs, x, sizeof x);
    void *tape = tapestry_tape_new(ts);
    double f = ((sinsum_aug)ts->augmented)(xs, dx, N, a, tape);
    check_close("thunk primal", f, sinsum(x, N, a), TOL);
    for (int i = 0; i < N; i++)
      xs[i] = 42; /* the caller reuses its buffer */
    for (int k = 1; k <= 10; k++) {
      double d[N] = {0}, once[N] = {0};
      double da;
      ((sinsum_rev)ts->reverse)(xs, d, N, a, (double)k, tape, &da);
      double oa = __enzyme_autodiff((void *)sinsum, enzyme_dup, x, once,
                                    enzyme_const, N, enzyme_out, a);
      for (int i = 0; i < N; i++) {
        check_close("replay dx == full sweep", d[i], k * once[i], TOL);
        check_close("replay dx == analytic", d[i], k * g[i], TOL);
      }
      check_close("replay da == full sweep", da, k * oa, TOL);
      check_close("replay da == analytic", da, k * ga, TOL);
    }
    tapestry_tape_delete(ts, tape);
  }

  /* The same through Enzyme's entry points: a reusable tape demanded with
   * tapestry_reusable_tape, enzyme_nofree on all but the last reverse. */
  {
    double dx[N] = {0};
    aug_d r = __enzyme_augmentfwd_d((void *)sinsum, tapestry_reusable_tape,
                                    enzyme_dup, x, dx, enzyme_const, N,
                                    enzyme_out, a);
    for (int k = 1; k <= 10; k++) {
      double d[N] = {0};
      double da =
          k < 10 ? __enzyme_reverse_d((void *)sinsum, tapestry_reusable_tape,
                                      enzyme_nofree, enzyme_dup, x, d,
                                      enzyme_const, N, enzyme_out, a,
                                      0.5 * k, r.tape)
                 : __enzyme_reverse_d((void *)sinsum, tapestry_reusable_tape,
                                      enzyme_dup, x, d, enzyme_const, N,
                                      enzyme_out, a, 0.5 * k, r.tape);
      check_close("nofree replay da", da, 0.5 * k * ga, TOL);
      check_close("nofree replay dx[2]", d[2], 0.5 * k * g[2], TOL);
    }
  }

  /* Blocks allocated in a loop: one forward, three reverse sweeps with
   * seeds dy = k, each dx = 3 k x^2 (the shadows start each sweep zero). */
  {
    double y[N], dy[N], dx0[N] = {0};
    void *tape = tapestry_tape_new(tc);
    ((void (*)(const double *, double *, double *, double *, int,
               void *))tc->augmented)(x, dx0, y, dy, N, tape);
    for (int k = 1; k <= 3; k++) {
      double dx[N] = {0};
      for (int i = 0; i < N; i++)
        dy[i] = k;
      ((void (*)(const double *, double *, double *, double *, int, void *,
                 void *))tc->reverse)(x, dx, y, dy, N, tape, NULL);
      for (int i = 0; i < N; i++)
        check_close("scratch thunk replay dx", dx[i], 3 * k * x[i] * x[i],
                    TOL);
    }
    tapestry_tape_delete(tc, tape);
  }

  /* Not reusable, but a thunk still works once per tape. */
  {
    double y[N], dy[N], dx[N] = {0};
    for (int i = 0; i < N; i++)
      dy[i] = 1;
    void *tape = tapestry_tape_new(tg);
    ((void (*)(const double *, double *, double *, double *, int,
               void *))tg->augmented)(x, dx, y, dy, N, tape);
    ((void (*)(const double *, double *, double *, double *, int, void *,
               void *))tg->reverse)(x, dx, y, dy, N, tape, NULL);
    tapestry_tape_delete(tg, tape);
    for (int i = 0; i < N; i++)
      check_close("grow thunk dx", dx[i], 3 * x[i] * x[i], TOL);
  }
  return check_report();
}
