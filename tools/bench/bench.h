/* Shared helpers of the benchmarks: a monotonic clock, a best-of-N timer,
 * and the line each benchmark prints:
 *   BENCH <kernel> primal_ms=<t> gradient_ms=<t> ratio=<r> tape_bytes=<b>
 * tools/bench/run.sh collects these lines into the README's table. */
#ifndef TAPESTRY_BENCH_H
#define TAPESTRY_BENCH_H

#include <stdio.h>
#include <time.h>

#include "tapestry/runtime.h"

static double bench_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Best of `reps` timings of `body` (a statement), in milliseconds. */
#define BENCH_BEST_MS(reps, body)                                              \
  ({                                                                           \
    double best_ = 1e30;                                                       \
    for (int r_ = 0; r_ < (reps); ++r_) {                                      \
      double t0_ = bench_now();                                                \
      body;                                                                    \
      double dt_ = (bench_now() - t0_) * 1e3;                                  \
      if (dt_ < best_)                                                         \
        best_ = dt_;                                                           \
    }                                                                          \
    best_;                                                                     \
  })

/* tape_bytes: the tape one gradient call allocates (its records' buffers
 * after geometric growth), measured around a call of `one_gradient`. */
#define BENCH_REPORT(kernel, primal_ms, gradient_ms, one_gradient)             \
  do {                                                                         \
    tapestry_tape_reset_high_water();                                          \
    one_gradient;                                                              \
    printf("BENCH %s primal_ms=%.4f gradient_ms=%.4f ratio=%.2f "              \
           "tape_bytes=%llu\n",                                                \
           kernel, primal_ms, gradient_ms, (gradient_ms) / (primal_ms),        \
           tapestry_tape_high_water());                                        \
  } while (0)

/* Keeps a result alive so the optimiser cannot drop the work. */
static volatile double bench_sink;

#endif
