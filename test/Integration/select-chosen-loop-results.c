// Loops whose result a select keeps or drops (`if (d < best) best = d`):
// the reverse of each distance loop runs only for the distance the select
// kept (Synthesis/ChosenLoopResults.h). Nearest and farthest centroid
// costs, the select's other arm, a distance some iterations compute and
// then drop before the select runs, a loop the select cannot decide alone,
// and the Hessian's diagonal by forward over reverse (where the adjoint's
// tangent must be dropped with it). Expected: the analytic derivatives,
// gradient 2 sum (c_j - p_i) over the points whose chosen centroid is j,
// Hessian diagonal 2 |points choosing j|; and central differences.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// RUN: %clang -O2 %s -c -o /dev/null -Rpass=tapestry \
// RUN:   -Rpass-missed=tapestry 2>&1 | FileCheck --check-prefix=REMARK %s
// REMARK-NOT: 'nearestPlusAll' runs the reverse
#include "Inputs/check.h"
#include <string.h>

enum { N = 23, K = 5, D = 3 };
static double P[N * D], C[K * D];
#include "Inputs/centroid-derivatives.h"

static double dist2(const double *restrict p, const double *restrict c) {
  double s = 0;
  for (int l = 0; l < D; l++)
    s += (p[l] - c[l]) * (p[l] - c[l]);
  return s;
}

// sum_i min_j |p_i - c_j|^2
void nearest(const double *restrict p, const double *restrict c,
             double *restrict out) {
  double cost = 0;
  for (int i = 0; i < N; i++) {
    double best = INFINITY;
    for (int j = 0; j < K; j++) {
      double d = dist2(&p[i * D], &c[j * D]);
      // REMARK-DAG: remark: reverse sweep of 'nearest' runs the reverse of this loop only when the select at line [[#@LINE+1]] keeps its result
      if (d < best)
        best = d;
    }
    cost += best;
  }
  *out = cost;
}

// sum_i max_j |p_i - c_j|^2, the kept distance in the select's false arm.
void farthest(const double *restrict p, const double *restrict c,
              double *restrict out) {
  double cost = 0;
  for (int i = 0; i < N; i++) {
    double best = -1;
    for (int j = 0; j < K; j++) {
      double d = dist2(&p[i * D], &c[j * D]);
      // REMARK-DAG: remark: reverse sweep of 'farthest' runs the reverse of this loop only when the select at line [[#@LINE+1]] keeps its result
      best = d <= best ? best : d;
    }
    cost += best;
  }
  *out = cost;
}

// Centroids farther than the cutoff are dropped before the select runs.
static const double Cutoff = 0.35;
void nearestWithin(const double *restrict p, const double *restrict c,
                   double *restrict out) {
  double cost = 0;
  for (int i = 0; i < N; i++) {
    double best = 1.0;
    for (int j = 0; j < K; j++) {
      double d = dist2(&p[i * D], &c[j * D]);
      if (d > Cutoff)
        continue;
      // (The optimiser merges both tests into one select, at the line of "d > Cutoff".)
      // REMARK-DAG: remark: reverse sweep of 'nearestWithin' runs the reverse of this loop only when the select at line [[#@LINE-3]] keeps its result
      if (d < best)
        best = d;
    }
    cost += best;
  }
  *out = cost;
}

// nearest without `restrict`: the store of the result may overwrite the
// points, so each distance loop keeps what it read on the tape, and its
// reverse runs for every centroid.
void nearestAliased(const double *p, const double *c, double *out) {
  double cost = 0;
  for (int i = 0; i < N; i++) {
    double best = INFINITY;
    for (int j = 0; j < K; j++) {
      double d = 0;
      for (int l = 0; l < D; l++)
        d += (p[i * D + l] - c[j * D + l]) * (p[i * D + l] - c[j * D + l]);
      // REMARK-DAG: remark: reverse sweep of 'nearestAliased' runs the reverse of this loop even when the select at line [[#@LINE+1]] drops its result: the loop keeps values on the tape
      if (d < best)
        best = d;
    }
    cost += best;
  }
  *out = cost;
}

// The distance is kept by the select and also added up: every loop's
// reverse runs.
void nearestPlusAll(const double *p, const double *c, double *out) {
  double cost = 0;
  for (int i = 0; i < N; i++) {
    double best = INFINITY, all = 0;
    for (int j = 0; j < K; j++) {
      double d = dist2(&p[i * D], &c[j * D]);
      all += d;
      if (d < best)
        best = d;
    }
    cost += best + 0.5 * all;
  }
  *out = cost;
}

GRADIENT(nearest)
GRADIENT(farthest)
GRADIENT(nearestWithin)
GRADIENT(nearestAliased)
GRADIENT(nearestPlusAll)

// The chosen centroid of point i: -1 if none (nearestWithin), and whether
// every centroid's distance also counts (nearestPlusAll).
static int chosen(int i, int far, double cutoff) {
  int best = -1;
  double bd = far ? -1 : cutoff;
  for (int j = 0; j < K; j++) {
    double d = dist2(&P[i * D], &C[j * D]);
    if (far ? d > bd : d < bd)
      bd = d, best = j;
  }
  return best;
}

static void expected(int far, double cutoff, double allWeight, double *g,
                     double *h) {
  memset(g, 0, sizeof(double) * K * D);
  memset(h, 0, sizeof(double) * K * D);
  for (int i = 0; i < N; i++) {
    int j = chosen(i, far, cutoff);
    for (int l = 0; l < D; l++) {
      if (j >= 0) {
        g[j * D + l] += 2 * (C[j * D + l] - P[i * D + l]);
        h[j * D + l] += 2;
      }
      for (int m = 0; m < K; m++) {
        g[m * D + l] += allWeight * 2 * (C[m * D + l] - P[i * D + l]);
        h[m * D + l] += allWeight * 2;
      }
    }
  }
}

static double value(Objective *f) {
  double out;
  f(P, C, &out);
  return out;
}

static void checkAll(const char *name, Objective *f,
                     void (*grad)(const double *, double *),
                     void (*hess)(double *, double *), int far, double cutoff,
                     double allWeight) {
  double g[K * D], wantG[K * D], wantH[K * D];
  expected(far, cutoff, allWeight, wantG, wantH);
  grad(C, g);
  char what[96];
  for (int q = 0; q < K * D; q++) {
    snprintf(what, sizeof what, "%s d/dc[%d]", name, q);
    check_close(what, g[q], wantG[q], 1e-12);
    double c0 = C[q];
    double fd = CENTRAL_DIFF((C[q] = t_, value(f)), c0, 1e-6);
    C[q] = c0;
    snprintf(what, sizeof what, "%s d/dc[%d] (central difference)", name, q);
    check_close(what, g[q], fd, 1e-6);
  }
  check_hessian(name, hess, wantG, wantH);
}

int main(void) {
  unsigned s = 12345;
  for (int q = 0; q < N * D; q++)
    P[q] = (s = s * 1103515245u + 12345u, (s >> 8) % 10007 / 10007.0);
  for (int q = 0; q < K * D; q++)
    C[q] = (s = s * 1103515245u + 12345u, (s >> 8) % 10007 / 10007.0);
#define CHECK_ALL(name, far, cutoff, allWeight)                                \
  checkAll(#name, name, grad_##name, hess_##name, far, cutoff, allWeight)
  CHECK_ALL(nearest, 0, INFINITY, 0);
  CHECK_ALL(farthest, 1, INFINITY, 0);
  CHECK_ALL(nearestWithin, 0, Cutoff, 0);
  CHECK_ALL(nearestAliased, 0, INFINITY, 0);
  CHECK_ALL(nearestPlusAll, 0, INFINITY, 0.5);
  return check_report();
}
