/* Reproducer (issue 16 items 3/4): a reverse sweep whose tape (here 16 bytes
 * per element, 1.6 MB) is above glibc's mmap/trim thresholds costs a system
 * call pair per gradient call, so the gradient takes ~10x its time with
 * glibc's default allocator settings:
 *   clang-19 -O2 -fpass-plugin=build/plugin/TapestryPlugin-19.so \
 *     tools/bench/standard/repro/tape-trim.c -lm -o /tmp/tape-trim
 *   /tmp/tape-trim
 *   MALLOC_MMAP_THRESHOLD_=1073741824 MALLOC_TRIM_THRESHOLD_=1073741824 \
 *     /tmp/tape-trim
 * (add -fplugin=build/plugin/TapestryPlugin-19.so -mllvm -tapestry-tape-stats
 * -Iinclude -Lbuild/runtime -ltapestry-rt for the tape bytes).
 * Prints the gradient's time per call and the hand-written one's. */
#include <math.h>
#include <stdio.h>
#include <time.h>
#include "tapestry/runtime.h"
extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);

double sumexp(int n, const double *x) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > m)
      m = x[i];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(x[i] - m);
  return log(s) + m;
}

enum { N = 100000, Reps = 200 };
static double x[N], g[N];

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(void) {
  for (int i = 0; i < N; i++)
    x[i] = sin(i);
  double t0 = now();
  for (int r = 0; r < Reps; r++) {
    for (int i = 0; i < N; i++)
      g[i] = 0;
    __enzyme_autodiff((void *)sumexp, enzyme_const, N, enzyme_dup, x, g);
  }
  double tad = (now() - t0) / Reps;
  tapestry_tape_reset_high_water();
  __enzyme_autodiff((void *)sumexp, enzyme_const, N, enzyme_dup, x, g);
  unsigned long long tape = tapestry_tape_high_water();
  double s = 0;
  t0 = now();
  for (int r = 0; r < Reps; r++) {
    double m = x[0];
    for (int i = 1; i < N; i++)
      m = x[i] > m ? x[i] : m;
    s = 0;
    for (int i = 0; i < N; i++)
      s += exp(x[i] - m);
    for (int i = 0; i < N; i++)
      g[i] = exp(x[i] - m) / s;
  }
  double thand = (now() - t0) / Reps;
  printf("gradient %.3f ms, hand-written %.3f ms, tape %llu bytes\n",
         tad * 1e3, thand * 1e3, tape);
  return 0;
}
