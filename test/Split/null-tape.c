// A reverse given a null tape stops with a message naming the function
// instead of crashing: at compile time when the tape is a null constant, at
// run time when a program's tape variable was never filled (here the cache
// of a solver that skipped its forward pass on one path).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: not %t0 skip 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUN: not %t2 skip 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUN: not %clang_fplugin -O0 -DCONSTANT_NULL -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONSTANT
// RUN: not %clang_fplugin -O2 -DCONSTANT_NULL -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONSTANT
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// RUNTIME: tapestry: the tape passed to the reverse of 'energy' is a null pointer; pass the tape its __enzyme_augmentfwd returned (or the buffer it filled).
// RUNTIME-NOT: gradient done
// CONSTANT: null-tape.c:[[#@LINE+38]]:3: error: tapestry: the tape passed to this __enzyme_reverse is a null pointer; pass the tape its __enzyme_augmentfwd returned (or the buffer it filled)
#include "../Integration/Inputs/check.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

extern int enzyme_dup;
typedef struct {
  void *tape;
  double energy;
} aug_energy;
aug_energy __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

__attribute__((noinline)) double energy(const double *q, int n) {
  double e = 0;
  for (int i = 0; i < n; ++i)
    e += 0.5 * q[i] * q[i] + cos(q[i]);
  return e;
}

struct step_cache {
  void *tape;
  int n;
};

static void forward(struct step_cache *c, double *q, double *dq, int run) {
  if (run)
    c->tape =
        __enzyme_augmentfwd((void *)energy, enzyme_dup, q, dq, c->n).tape;
}

static void gradient(struct step_cache *c, double *q, double *dq) {
  __enzyme_reverse((void *)energy, enzyme_dup, q, dq, c->n, 1.0, c->tape);
}

#ifdef CONSTANT_NULL
void constant_null(double *q, double *dq) {
  __enzyme_reverse((void *)energy, enzyme_dup, q, dq, 3, 1.0, (void *)0);
}
#endif

int main(int argc, char **argv) {
  int skip = argc > 1 && strcmp(argv[1], "skip") == 0;
  double q[3] = {0.3, -1.2, 2.0}, dq[3] = {0, 0, 0};
  struct step_cache c = {0, 3};
  forward(&c, q, dq, !skip);
  gradient(&c, q, dq);
  fprintf(stderr, "gradient done\n");
  for (int i = 0; i < 3; ++i)
    check_close("dq", dq[i], q[i] - sin(q[i]), 1e-12);
  return check_report();
}
