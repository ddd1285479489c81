// The C idiom of a block allocated under a condition: `double *buf = NULL;
// if (c) buf = malloc(...); ...; free(buf)` (and `if (buf) free(buf)`).
// The free's pointer is a phi of the block and a null from the other
// branch, which the allocation cannot reach: the free is of that block or
// does nothing, so it waits for the reverse, and the tape owns the block
// (recorded as allocated). It was refused with a false reason ("a heap
// block whose address is stored or passed where it may be kept"; found by
// a split-mode probe of stranger programs). Demanded reusable, one forward
// half per path, inputs overwritten, three sweeps with seeds 1, 2, 3,
// against the analytic gradient.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_nofree, tapestry_reusable_tape;
typedef struct {
  void *tape;
  double primal;
} aug_d;
aug_d __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

#define N 4
#define TOL 1e-12

/* x1 > 0: sum_i e^{x_i} e^{x_{i+1 mod N}}; else x0^2. */
double plain(const double *x, int n) {
  double s = 0;
  double *buf = NULL;
  if (x[1] > 0) {
    buf = (double *)malloc(n * sizeof *buf);
    for (int i = 0; i < n; i++)
      buf[i] = exp(x[i]);
    for (int i = 0; i < n; i++)
      s += buf[i] * buf[(i + 1) % n];
  } else {
    s = x[0] * x[0];
  }
  free(buf);
  return s;
}

/* The same, freed under `if (buf)`. */
double guarded(const double *x, int n) {
  double s = 0;
  double *buf = NULL;
  if (x[1] > 0) {
    buf = (double *)malloc(n * sizeof *buf);
    for (int i = 0; i < n; i++)
      buf[i] = exp(x[i]);
    for (int i = 0; i < n; i++)
      s += buf[i] * buf[(i + 1) % n];
  } else {
    s = x[0] * x[0];
  }
  if (buf)
    free(buf);
  return s;
}

static void want(const double *x, double *g) {
  for (int i = 0; i < N; i++)
    g[i] = 0;
  if (x[1] > 0) {
    /* d/dx_i of sum_j e^{x_j + x_{j+1}}: the two terms holding x_i. */
    for (int i = 0; i < N; i++)
      g[i] = exp(x[i] + x[(i + 1) % N]) + exp(x[(i + N - 1) % N] + x[i]);
  } else {
    g[0] = 2 * x[0];
  }
}

#define REPLAYED(WHAT, F, X0)                                                  \
  do {                                                                         \
    double x[N], dx[N], g[N];                                                  \
    memcpy(x, X0, sizeof x);                                                   \
    want(X0, g);                                                               \
    aug_d r = __enzyme_augmentfwd((void *)F, tapestry_reusable_tape,           \
                                  enzyme_dup, x, dx, enzyme_const, N);         \
    for (int i = 0; i < N; i++)                                                \
      x[i] = 9;                                                                \
    for (int k = 1; k <= 3; k++) {                                             \
      memset(dx, 0, sizeof dx);                                                \
      if (k < 3)                                                               \
        __enzyme_reverse((void *)F, tapestry_reusable_tape, enzyme_nofree,     \
                         enzyme_dup, x, dx, enzyme_const, N, (double)k,        \
                         r.tape);                                              \
      else                                                                     \
        __enzyme_reverse((void *)F, tapestry_reusable_tape, enzyme_dup, x,     \
                         dx, enzyme_const, N, (double)k, r.tape);              \
      for (int i = 0; i < N; i++)                                              \
        check_close(WHAT, dx[i], k * g[i], TOL);                               \
    }                                                                          \
  } while (0)

int main(void) {
  static const double taken[N] = {0.3, 0.5, -0.2, 0.1};
  static const double skipped[N] = {0.7, -0.5, 0.4, 0.2};
  REPLAYED("plain, allocated: dx", plain, taken);
  REPLAYED("plain, not allocated: dx", plain, skipped);
  REPLAYED("guarded, allocated: dx", guarded, taken);
  REPLAYED("guarded, not allocated: dx", guarded, skipped);
  return check_report();
}
