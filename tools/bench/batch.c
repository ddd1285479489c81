/* Batch mode: one sweep of width W against W scalar sweeps, forward and
 * reverse, on a dense matrix-vector product y = A x (n = 512, the Jacobian
 * dy/dx is A), checked against A itself. Prints, per mode and width,
 *   BATCH <kernel> width=<W> batched_ms=<t> scalar_ms=<t> ratio=<r>
 * (ratio = batched / W scalar sweeps; below 1 batch mode wins).  batch */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "tapestry/batch.h"

extern int enzyme_width, enzyme_dup, enzyme_dupv, enzyme_dupnoneedv,
    enzyme_const;
void __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);

void matvec(const double *__restrict A, const double *__restrict x,
            double *__restrict y, int n) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < n; j++)
      s += A[i * n + j] * x[j];
    y[i] = s;
  }
}

enum { N = 512, MaxW = 8, Reps = 7 };
static double A[N * N], x[N], y[N];
/* Lane k of a shadow block at base + k * stride (tapestry/batch.h). */
static double *dx, *dy;
static size_t stride;
#define LANE(d, k) ((double *)((char *)(d) + (k) * stride))
static int bad;

static void seed(double *d, int w) {
  tapestry_batch_zero(d, MaxW, stride, N * sizeof(double));
  for (int k = 0; k < w; k++)
    LANE(d, k)[3 * k + 1] = 1;
}

/* Lane k of a forward sweep seeded with e_{3k+1} is column 3k+1 of A; of a
 * reverse sweep, row 3k+1. */
static void check(const char *what, double *d, int w, int column) {
  for (int k = 0; k < w; k++)
    for (int i = 0; i < N; i += 37) {
      double want = column ? A[i * N + 3 * k + 1] : A[(3 * k + 1) * N + i];
      if (fabs(LANE(d, k)[i] - want) > 1e-12) {
        printf("%s width %d lane %d [%d]: got %g want %g\n", what, w, k, i,
               LANE(d, k)[i], want);
        bad++;
        return;
      }
    }
}

/* Each sweep is a function of its own, as a caller sweeping directions
 * would have it, so the optimiser cannot merge the W scalar sweeps' primal
 * passes (they compute the same y) and the timing measures the derivative
 * code. */
#define BATCHED(W)                                                             \
  __attribute__((noinline)) static void fwd##W(void) {                         \
    __enzyme_fwddiff((void *)matvec, enzyme_width, W, enzyme_const, A,         \
                     enzyme_dupv, stride, x, dx, enzyme_dupnoneedv, stride, y, \
                     dy, enzyme_const, N);                                     \
  }                                                                            \
  __attribute__((noinline)) static void rev##W(void) {                         \
    __enzyme_autodiff((void *)matvec, enzyme_width, W, enzyme_const, A,        \
                      enzyme_dupv, stride, x, dx, enzyme_dupnoneedv, stride,   \
                      y, dy, enzyme_const, N);                                 \
  }
BATCHED(2)
BATCHED(4)
BATCHED(8)

__attribute__((noinline)) static void fwd1(int k) {
  __enzyme_fwddiff((void *)matvec, enzyme_const, A, enzyme_dup, x, LANE(dx, k),
                   enzyme_dup, y, LANE(dy, k), enzyme_const, N);
}
__attribute__((noinline)) static void rev1(int k) {
  __enzyme_autodiff((void *)matvec, enzyme_const, A, enzyme_dup, x, LANE(dx, k),
                    enzyme_dup, y, LANE(dy, k), enzyme_const, N);
}

static void report(const char *kernel, int w, double batched, double scalar) {
  printf("BATCH %s width=%d batched_ms=%.4f scalar_ms=%.4f ratio=%.2f\n",
         kernel, w, batched, scalar, batched / scalar);
}

#define BENCH_WIDTH(W)                                                         \
  do {                                                                         \
    double tb = BENCH_BEST_MS(Reps, {                                          \
      seed(dx, W);                                                             \
      fwd##W();                                                                \
    });                                                                        \
    check("forward batched", dy, W, 1);                                        \
    double ts = BENCH_BEST_MS(Reps, {                                          \
      seed(dx, W);                                                             \
      for (int k = 0; k < W; k++)                                              \
        fwd1(k);                                                               \
    });                                                                        \
    check("forward scalar", dy, W, 1);                                         \
    report("matvec_fwd_n512", W, tb, ts);                                      \
    tb = BENCH_BEST_MS(Reps, {                                                 \
      seed(dy, W);                                                             \
      tapestry_batch_zero(dx, MaxW, stride, N * sizeof(double));               \
      rev##W();                                                                \
    });                                                                        \
    check("reverse batched", dx, W, 0);                                        \
    ts = BENCH_BEST_MS(Reps, {                                                 \
      seed(dy, W);                                                             \
      tapestry_batch_zero(dx, MaxW, stride, N * sizeof(double));               \
      for (int k = 0; k < W; k++)                                              \
        rev1(k);                                                               \
    });                                                                        \
    check("reverse scalar", dx, W, 0);                                         \
    report("matvec_rev_n512", W, tb, ts);                                      \
  } while (0)

int main(void) {
  for (int i = 0; i < N * N; i++)
    A[i] = sin(0.001 * i);
  for (int i = 0; i < N; i++)
    x[i] = cos(0.01 * i);
  dx = tapestry_batch_alloc(MaxW, N * sizeof(double), &stride);
  dy = tapestry_batch_alloc(MaxW, N * sizeof(double), NULL);
  BENCH_WIDTH(2);
  BENCH_WIDTH(4);
  BENCH_WIDTH(8);
  tapestry_batch_free(dx);
  tapestry_batch_free(dy);
  printf("%s\n", bad ? "JACOBIAN CHECK FAILED" : "jacobian check OK");
  return bad != 0;
}
