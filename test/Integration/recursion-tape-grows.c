// A recursive function's tape grows with the recursion's work (issue 16 item
// 5). The determinant by minors (tools/bench/standard/det.cpp) recurses once
// per minor; each call's loop runs a few times (once per column left), an
// unknown number of times, so its records grow as it runs. They used to
// start at 4 KiB whatever the loop's work: 4096 bytes per call that loops,
// about 1.7 KB per loop iteration of the whole recursion (352 KB for a 5 x 5
// matrix). Now they start with room for a few records: the tape stays under
// 512 bytes per iteration at every optimisation level.
// The tape's bytes are counted by -mllvm -tapestry-tape-stats (the
// TAPESTRY_TAPE_STATS environment variable these RUN lines once set is no
// longer read: the count was 0 and the check below could not fail; it now
// also requires a count).
// Expected (analytic): d det(A) / d a_ij is the cofactor (-1)^(i+j) M_ij,
// each minor M_ij computed here by Gaussian elimination (not by minors).
// RUN: %clang -fplugin=%plugin -mllvm -tapestry-tape-stats -O0 %s -ltapestry-rt -lm -o %t0
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

#include "Inputs/check.h"
#include "tapestry/runtime.h"

extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);

#define L 5
static long iterations;

/* The k x k minor of the L x L matrix a on the rows r[L], r[r[L]], ... and
 * the columns c[L], c[c[L]], ... (linked lists, unlinked while in use). */
static double minor(const double *a, int k, int *r, int *c) {
  int i = r[L];
  if (k == 1)
    return a[i * L + c[L]];
  r[L] = r[i];
  double d = 0, sign = 1;
  for (int prev = L, j = c[L]; j < L; prev = j, j = c[j]) {
    iterations++;
    c[prev] = c[j];
    double sub = minor(a, k - 1, r, c);
    c[prev] = j;
    d += sign * a[i * L + j] * sub;
    sign = -sign;
  }
  r[L] = i;
  return d;
}

double det(const double *a, int *r, int *c) {
  for (int i = 0; i <= L; i++)
    r[i] = c[i] = (i + 1) % (L + 1);
  return minor(a, L, r, c);
}

/* The determinant of the n x n matrix m (row stride L) by elimination with
 * partial pivoting. */
static double detGauss(double m[L][L], int n) {
  double d = 1;
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++)
      if (fabs(m[i][k]) > fabs(m[p][k]))
        p = i;
    if (p != k) {
      for (int j = 0; j < n; j++) {
        double t = m[k][j];
        m[k][j] = m[p][j];
        m[p][j] = t;
      }
      d = -d;
    }
    d *= m[k][k];
    for (int i = k + 1; i < n; i++) {
      double f = m[i][k] / m[k][k];
      for (int j = k; j < n; j++)
        m[i][j] -= f * m[k][j];
    }
  }
  return d;
}

int main(void) {
  double a[L * L], g[L * L] = {0};
  int r[L + 1], c[L + 1];
  for (int i = 0; i < L * L; i++)
    a[i] = ((i * 7919) % 17) / 17.0 - 0.5 + (i % (L + 1) == 0 ? 2 : 0);
  tapestry_tape_reset_high_water();
  iterations = 0;
  __enzyme_autodiff((void *)det, enzyme_dup, a, g, enzyme_const, r,
                    enzyme_const, c);
  unsigned long long tape = tapestry_tape_high_water();
  for (int i = 0; i < L; i++)
    for (int j = 0; j < L; j++) {
      double m[L][L];
      for (int p = 0, mi = 0; p < L; p++) {
        if (p == i)
          continue;
        for (int q = 0, mj = 0; q < L; q++)
          if (q != j)
            m[mi][mj++] = a[p * L + q];
        mi++;
      }
      double want = ((i + j) % 2 ? -1 : 1) * detGauss(m, L - 1);
      char what[32];
      snprintf(what, sizeof what, "d det / d a[%d][%d]", i, j);
      check_close(what, g[i * L + j], want, 1e-10);
    }
  /* 205 iterations of the loop over the whole recursion (1 x 5 + 5 x 4 +
   * 20 x 3 + 60 x 2). */
  printf("tape %llu bytes over %ld iterations\n", tape, iterations);
  check_close("iterations", (double)iterations, 205, 0);
  if (tape == 0) {
    printf("FAIL tape: no bytes counted (compiled without tape statistics?)\n");
    check_failures++;
  }
  if (tape > 512ull * (unsigned long long)iterations) {
    printf("FAIL tape: %llu bytes, more than 512 per iteration\n", tape);
    check_failures++;
  }
  return check_report();
}
