// Heap blocks that hold only integers (an argsort's index array, a
// histogram's counts, the branch records of a reverse sweep differentiated
// again) get no shadow (Analysis/PlainHeapBlocks.h), and every derivative
// stays right: reverse, forward, and the Hessian diagonal of a k-means cost
// by forward over reverse, whose reverse sweep's records must not cost a
// zeroed shadow block per call (no calloc in its -O2 code: one per call made
// that Hessian 2.5x slower). Doubles copied into a uint64_t block as their
// bits keep their shadow and their derivative. Expected values: analytic.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// IR-LABEL: define {{.*}}@hessian_diagonal(
// IR-NOT: @calloc
// IR: ret void
#include "Inputs/check.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_v(void *, ...);

enum { N = 7, K = 3, D = 2, P = 12 };

// sum_k (k + 1) x[idx[k]] with idx the permutation sorting x ascending: the
// derivative w.r.t. x[i] is its rank plus one.
double rank_weighted(const double *x, int n) {
  int *idx = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++)
    idx[i] = i;
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && x[idx[j - 1]] > x[idx[j]]; j--) {
      int t = idx[j];
      idx[j] = idx[j - 1];
      idx[j - 1] = t;
    }
  double s = 0;
  for (int k = 0; k < n; k++)
    s += (k + 1) * x[idx[k]];
  free(idx);
  return s;
}

// sum_i x_i^2 c(b_i), with b_i = floor(4 x_i) the bin of x_i in [0, 1) and
// c(b) how many x fall in bin b: the derivative is 2 x_i c(b_i).
double binned_energy(const double *x, int n) {
  int *count = calloc(4, sizeof(int));
  int *bin = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) {
    bin[i] = (int)floor(4 * x[i]);
    count[bin[i]]++;
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += x[i] * x[i] * count[bin[i]];
  free(bin);
  free(count);
  return e;
}

// sum_i x_i^2, the x copied through a block of their bits.
double through_bits(const double *x, int n) {
  uint64_t *bits = malloc(n * sizeof(uint64_t));
  memcpy(bits, x, n * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v;
    memcpy(&v, &bits[i], sizeof v);
    s += v * v;
  }
  free(bits);
  return s;
}

// k-means: sum over points of the squared distance to the closest centroid.
static double dist2(const double *restrict p, const double *restrict c) {
  double s = 0;
  for (int l = 0; l < D; l++)
    s += (p[l] - c[l]) * (p[l] - c[l]);
  return s;
}

void kmeans_cost(int n, const double *restrict p, const double *restrict c,
                 double *restrict cost) {
  double total = 0;
  for (int i = 0; i < n; i++) {
    double best = INFINITY;
    for (int j = 0; j < K; j++) {
      double d2 = dist2(&p[i * D], &c[j * D]);
      if (d2 < best)
        best = d2;
    }
    total += best;
  }
  *cost = total;
}

void kmeans_gradient(int n, const double *p, const double *c, double *g) {
  double cost = 0, dcost = 1;
  __enzyme_autodiff((void *)kmeans_cost, enzyme_const, n, enzyme_const, p,
                    enzyme_dup, c, g, enzyme_dup, &cost, &dcost);
}

// The Hessian is diagonal: its product with the all-ones vector is it.
__attribute__((noinline)) void hessian_diagonal(int n, const double *p,
                                                const double *c, double *g,
                                                double *h) {
  double ones[K * D];
  for (int i = 0; i < K * D; i++)
    ones[i] = 1;
  memset(g, 0, sizeof(double) * K * D);
  memset(h, 0, sizeof(double) * K * D);
  __enzyme_fwddiff_v((void *)kmeans_gradient, enzyme_const, n, enzyme_const,
                     p, enzyme_dup, c, ones, enzyme_dup, g, h);
}

static void check_kmeans(void) {
  double p[P * D], c[K * D], g[K * D], h[K * D];
  for (int i = 0; i < P * D; i++)
    p[i] = fmod(0.37 * i * i + 0.11 * i, 1.0);
  for (int i = 0; i < K * D; i++)
    c[i] = fmod(0.53 * i + 0.2, 1.0);
  for (int round = 0; round < 3; round++) {
    hessian_diagonal(P, p, c, g, h);
    double wantg[K * D] = {0}, wanth[K * D] = {0};
    for (int i = 0; i < P; i++) {
      int best = 0;
      double bd = INFINITY;
      for (int j = 0; j < K; j++) {
        double d2 = 0;
        for (int l = 0; l < D; l++)
          d2 += (p[i * D + l] - c[j * D + l]) * (p[i * D + l] - c[j * D + l]);
        if (d2 < bd) {
          bd = d2;
          best = j;
        }
      }
      for (int l = 0; l < D; l++) {
        wantg[best * D + l] += 2 * (c[best * D + l] - p[i * D + l]);
        wanth[best * D + l] += 2;
      }
    }
    for (int i = 0; i < K * D; i++) {
      check_close("k-means gradient", g[i], wantg[i], 1e-12);
      check_close("k-means Hessian diagonal", h[i], wanth[i], 1e-12);
    }
    c[round] += 0.05; // another point, another clustering
  }
}

int main(void) {
  double x[N] = {0.62, 0.11, 0.93, 0.35, 0.48, 0.07, 0.71};
  int rank[N];
  for (int i = 0; i < N; i++) {
    rank[i] = 0;
    for (int j = 0; j < N; j++)
      rank[i] += x[j] < x[i];
  }
  int count[4] = {0};
  for (int i = 0; i < N; i++)
    count[(int)floor(4 * x[i])]++;

  double dx[N] = {0};
  __enzyme_autodiff((void *)rank_weighted, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++)
    check_close("rank_weighted reverse", dx[i], rank[i] + 1, 1e-14);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)binned_energy, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++)
    check_close("binned_energy reverse", dx[i],
                2 * x[i] * count[(int)floor(4 * x[i])], 1e-14);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)through_bits, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++)
    check_close("through_bits reverse", dx[i], 2 * x[i], 1e-14);

  for (int i = 0; i < N; i++) {
    double e[N] = {0};
    e[i] = 1;
    check_close("rank_weighted forward",
                __enzyme_fwddiff((void *)rank_weighted, enzyme_dup, x, e,
                                 enzyme_const, N),
                rank[i] + 1, 1e-14);
    check_close("binned_energy forward",
                __enzyme_fwddiff((void *)binned_energy, enzyme_dup, x, e,
                                 enzyme_const, N),
                2 * x[i] * count[(int)floor(4 * x[i])], 1e-14);
    check_close("through_bits forward",
                __enzyme_fwddiff((void *)through_bits, enzyme_dup, x, e,
                                 enzyme_const, N),
                2 * x[i], 1e-14);
  }
  check_kmeans();
  return check_report();
}
