// Loops whose result fmin or fmax keeps or drops: the reverse of each
// distance loop runs only for the distance the minimum (maximum) kept
// (Synthesis/ChosenLoopResults.h), decided by fmin's own derivative rule,
// ties included. Two centroids are equal, so every point nearest to one is
// at a tie: fmin(x0, x1)'s derivative goes to x0 on a tie (as fmin returns
// x0), so `best = fmin(best, d)` keeps the first of the two centroids and
// `best = fmin(d, best)` the second. Expected: the analytic gradient,
// 2 sum (c_j - p_i) over the points whose kept centroid is j, with that
// tie rule; the Hessian's diagonal 2 |points keeping j| by forward over
// reverse; central differences away from the tied centroids.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 -ffast-math %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// RUN: %clang -O2 %s -c -o /dev/null -Rpass=tapestry 2>&1 \
// RUN:   | FileCheck --check-prefix=REMARK %s
#include "Inputs/check.h"
#include <string.h>

enum { N = 29, K = 5, D = 4 };
static double P[N * D], C[K * D];
#include "Inputs/centroid-derivatives.h"
// Centroid Twin is a copy of centroid Tied.
enum { Tied = 1, Twin = 3 };

static double dist2(const double *restrict p, const double *restrict c) {
  double s = 0;
  for (int l = 0; l < D; l++)
    s += (p[l] - c[l]) * (p[l] - c[l]);
  return s;
}

void nearestFirst(const double *restrict p, const double *restrict c,
                  double *restrict out) {
  double cost = 0;
  for (int i = 0; i < N; i++) {
    double best = INFINITY;
    for (int j = 0; j < K; j++)
      // REMARK-DAG: remark: reverse sweep of 'nearestFirst' runs the reverse of this loop only when the minimum at line [[#@LINE+1]] keeps its result
      best = fmin(best, dist2(&p[i * D], &c[j * D]));
    cost += best;
  }
  *out = cost;
}

void nearestLast(const double *restrict p, const double *restrict c,
                 double *restrict out) {
  double cost = 0;
  for (int i = 0; i < N; i++) {
    double best = INFINITY;
    for (int j = 0; j < K; j++)
      // REMARK-DAG: remark: reverse sweep of 'nearestLast' runs the reverse of this loop only when the minimum at line [[#@LINE+1]] keeps its result
      best = fmin(dist2(&p[i * D], &c[j * D]), best);
    cost += best;
  }
  *out = cost;
}

// The farthest centroid (no ties: the twins are never farthest here, see
// main).
void farthest(const double *restrict p, const double *restrict c,
              double *restrict out) {
  double cost = 0;
  for (int i = 0; i < N; i++) {
    double best = 0;
    for (int j = 0; j < K; j++)
      // REMARK-DAG: remark: reverse sweep of 'farthest' runs the reverse of this loop only when the maximum at line [[#@LINE+1]] keeps its result
      best = fmax(best, dist2(&p[i * D], &c[j * D]));
    cost += best;
  }
  *out = cost;
}

GRADIENT(nearestFirst)
GRADIENT(nearestLast)
GRADIENT(farthest)

// The centroid point i keeps: the first or last of equal nearest ones, or
// the farthest.
static int kept(int i, int rule) {
  int best = -1;
  double bd = rule == 2 ? -1 : INFINITY;
  for (int j = 0; j < K; j++) {
    double d = dist2(&P[i * D], &C[j * D]);
    if (rule == 0 ? d < bd : rule == 1 ? d <= bd : d > bd)
      bd = d, best = j;
  }
  return best;
}

static double value(Objective *f) {
  double out;
  f(P, C, &out);
  return out;
}

static int ties = 0;

static void checkAll(const char *name, Objective *f,
                     void (*grad)(const double *, double *),
                     void (*hess)(double *, double *), int rule) {
  double wantG[K * D] = {0}, wantH[K * D] = {0}, g[K * D];
  for (int i = 0; i < N; i++) {
    int j = kept(i, rule);
    ties += rule == 0 && j == Tied;
    for (int l = 0; l < D; l++) {
      wantG[j * D + l] += 2 * (C[j * D + l] - P[i * D + l]);
      wantH[j * D + l] += 2;
    }
  }
  grad(C, g);
  char what[96];
  for (int q = 0; q < K * D; q++) {
    snprintf(what, sizeof what, "%s d/dc[%d]", name, q);
    check_close(what, g[q], wantG[q], 1e-12);
    int j = q / D;
    if (j == Tied || j == Twin)
      continue; // Not differentiable there: the rule picks a side.
    double c0 = C[q];
    double fd = CENTRAL_DIFF((C[q] = t_, value(f)), c0, 1e-6);
    C[q] = c0;
    snprintf(what, sizeof what, "%s d/dc[%d] (central difference)", name, q);
    check_close(what, g[q], fd, 1e-6);
  }
  check_hessian(name, hess, wantG, wantH);
}

int main(void) {
  unsigned s = 2024;
  for (int q = 0; q < N * D; q++)
    P[q] = (s = s * 1103515245u + 12345u, (s >> 8) % 10007 / 10007.0);
  for (int q = 0; q < K * D; q++)
    C[q] = (s = s * 1103515245u + 12345u, (s >> 8) % 10007 / 10007.0);
  // The twins sit in the middle of the points, so some points are nearest
  // to them and none farthest.
  for (int l = 0; l < D; l++)
    C[Tied * D + l] = C[Twin * D + l] = 0.5;
#define CHECK_ALL(name, rule) checkAll(#name, name, grad_##name, hess_##name, rule)
  CHECK_ALL(nearestFirst, 0);
  CHECK_ALL(nearestLast, 1);
  CHECK_ALL(farthest, 2);
  check_close("points at a tie (some)", ties > 0, 1, 0);
  return check_report();
}
