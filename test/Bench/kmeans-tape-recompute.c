// The k-means Hessian diagonal by forward over reverse
// (tools/bench/standard/kmeans.cpp, issue 16 item 4): the inner gradient's
// reverse sweep needs p_l - c_l for every point, centroid and dimension. It
// used to tape it (8 bytes per dimension: 72 bytes per point-centroid pair
// at d = 8), which the outer forward derivative then shadows; now it
// recomputes the difference from the two reloaded inputs, which nothing
// writes, and the tape keeps only the comparison that picks the closest
// centroid.
// Expected (analytic): with cluster(i) the centroid closest to p_i, the
// gradient w.r.t. c_j is sum over the points of cluster j of 2 (c_j - p_i),
// and the Hessian's diagonal (direction all ones) is 2 |cluster j|.
// At -O0 dist2 stays a call (clang marks it noinline), whose split
// derivative may not reload its caller's memory: only the values are
// checked there.
// RUN: %clang -fplugin=%plugin -mllvm -tapestry-tape-stats -O0 -DVALUES_ONLY %s -ltapestry-rt -lm -o %t0
// RUN: %t0 | FileCheck %s
// RUN: %clang -fplugin=%plugin -mllvm -tapestry-tape-stats -O1 %s -ltapestry-rt -lm -o %t1
// RUN: %t1 | FileCheck %s
// RUN: %clang -fplugin=%plugin -mllvm -tapestry-tape-stats -O2 %s -ltapestry-rt -lm -o %t2
// RUN: %t2 | FileCheck %s
// RUN: %clang -fplugin=%plugin -mllvm -tapestry-tape-stats -O3 %s -ltapestry-rt -lm -o %t3
// RUN: %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include <math.h>
#include <stdio.h>

#include "../Integration/Inputs/check.h"
#include "tapestry/runtime.h"

extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

#define N 2000
#define K 3
#define D 8

static double dist2(int d, const double *restrict p, const double *restrict c) {
  double s = 0;
  for (int i = 0; i < d; i++)
    s += (p[i] - c[i]) * (p[i] - c[i]);
  return s;
}

void objective(int n, int k, int d, const double *restrict points,
               const double *restrict centroids, double *restrict err) {
  double cost = 0;
  for (int i = 0; i < n; i++) {
    double closest = INFINITY;
    for (int j = 0; j < k; j++) {
      double dj = dist2(d, &points[i * d], &centroids[j * d]);
      if (dj < closest)
        closest = dj;
    }
    cost += closest;
  }
  *err = cost;
}

void gradient(int n, int k, int d, const double *points,
              const double *centroids, double *grad) {
  double err = 0, derr = 1;
  __enzyme_autodiff((void *)objective, enzyme_const, n, enzyme_const, k,
                    enzyme_const, d, enzyme_const, points, enzyme_dup,
                    centroids, grad, enzyme_dup, &err, &derr);
}

int main(void) {
  static double p[N * D], c[K * D], ones[K * D], g[K * D], h[K * D];
  for (int i = 0; i < N * D; i++)
    p[i] = ((i * 37) % 101) / 101.0;
  for (int i = 0; i < K * D; i++) {
    c[i] = ((i * 53) % 89) / 89.0;
    ones[i] = 1;
  }
  tapestry_tape_reset_high_water();
  __enzyme_fwddiff((void *)gradient, enzyme_const, N, enzyme_const, K,
                   enzyme_const, D, enzyme_const, p, enzyme_dup, c, ones,
                   enzyme_dup, g, h);
  unsigned long long tape = tapestry_tape_high_water();
  double wantG[K * D] = {0}, wantH[K * D] = {0};
  for (int i = 0; i < N; i++) {
    int best = 0;
    for (int j = 1; j < K; j++)
      if (dist2(D, &p[i * D], &c[j * D]) < dist2(D, &p[i * D], &c[best * D]))
        best = j;
    for (int l = 0; l < D; l++) {
      wantG[best * D + l] += 2 * (c[best * D + l] - p[i * D + l]);
      wantH[best * D + l] += 2;
    }
  }
  for (int i = 0; i < K * D; i++) {
    char what[32];
    snprintf(what, sizeof what, "gradient[%d]", i);
    check_close(what, g[i], wantG[i], 1e-12);
    snprintf(what, sizeof what, "hessian diagonal[%d]", i);
    check_close(what, h[i], wantH[i], 1e-12);
  }
  /* Taping p - c took 8 D = 64 bytes per pair (72 with the rest); what is
   * left is the comparison and counters, 8 bytes per pair and 8 per point.
   * Record arrays start at 4 KiB and double as they grow, so the high-water
   * mark may be up to twice what is recorded: at most 32 bytes per pair. */
  printf("tape %llu bytes for %d point-centroid pairs\n", tape, N * K);
#ifndef VALUES_ONLY
  if (tape == 0) {
    printf("FAIL tape: nothing recorded (compiled without "
           "-mllvm -tapestry-tape-stats?)\n");
    check_failures++;
  }
  if (tape > 32ull * N * K) {
    printf("FAIL tape: %llu bytes, more than 32 per pair\n", tape);
    check_failures++;
  }
#endif
  return check_report();
}
