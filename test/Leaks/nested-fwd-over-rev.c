// LeakSanitizer, forward over reverse (issue 16): the Hessian diagonal of a
// k-means-like cost, a forward derivative of a function that runs a reverse
// derivative (as tools/bench/standard/kmeans.cpp does). The inner reverse
// keeps its loop records in arrays grown by realloc, mallocs and frees a
// scratch array and takes tape blocks from the per-thread cache; the outer
// forward derivative shadows all of it. Run many times, every call must
// leave no heap bytes behind (HEAP_CHECK), LeakSanitizer must report
// nothing at exit, and the results must match their analytic values.
// Expected (analytic): with p_i assigned to its nearest centroid c_j,
// cost = sum_i (p_i - c_j)^2, d cost / d c_j = sum 2 (c_j - p_i) over the
// points of c_j, and d^2 cost / d c_j^2 = 2 (points of c_j).
// REQUIRES: lsan
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O0 %s -lm %tapestry_rt -o %t0 && %lsan_run %t0 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O2 %s -lm %tapestry_rt -o %t2 && %lsan_run %t2 2>&1 | FileCheck %s
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
// CHECK: ALL PASSED: 0 failure(s)
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
#include "Inputs/heap.h"
#include <stdlib.h>

extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

enum { N = 40, K = 4 };

/* Each point's squared distance to its nearest centroid, through a
 * malloc'd row of distances. */
void cost(int n, int k, const double *p, const double *c, double *err) {
  double *d = malloc(k * sizeof *d);
  double s = 0;
  for (int i = 0; i < n; i++) {
    int best = 0;
    for (int j = 0; j < k; j++) {
      d[j] = (p[i] - c[j]) * (p[i] - c[j]);
      if (d[j] < d[best])
        best = j;
    }
    s += d[best];
  }
  free(d);
  *err = s;
}

void grad(int n, int k, const double *p, const double *c, double *dc) {
  double err = 0, derr = 1;
  __enzyme_autodiff((void *)cost, enzyme_const, n, enzyme_const, k,
                    enzyme_const, p, enzyme_dup, c, dc, enzyme_dup, &err,
                    &derr);
}

static int nearest(double p, const double *c) {
  int best = 0;
  for (int j = 1; j < K; j++)
    if ((p - c[j]) * (p - c[j]) < (p - c[best]) * (p - c[best]))
      best = j;
  return best;
}

static char label[128];
#define LABEL(...) (snprintf(label, sizeof label, __VA_ARGS__), label)

int main(void) {
  double p[N], c[K] = {-0.7, -0.2, 0.3, 0.8}, one[K] = {1, 1, 1, 1};
  for (int i = 0; i < N; i++)
    p[i] = 0.95 * sin(1.3 * i + 0.2);
  double want_g[K] = {0}, want_h[K] = {0};
  for (int i = 0; i < N; i++) {
    int j = nearest(p[i], c);
    want_g[j] += 2 * (c[j] - p[i]);
    want_h[j] += 2;
  }
  for (int rep = 0; rep < 50; rep++) {
    double dc[K] = {0}, h[K] = {0};
    HEAP_CHECK(LABEL("hessian diagonal, call %d", rep), 1,
               __enzyme_fwddiff((void *)grad, enzyme_const, N, enzyme_const,
                                K, enzyme_const, p, enzyme_dup, c, one,
                                enzyme_dup, dc, h));
    if (rep % 10 == 0)
      for (int j = 0; j < K; j++) {
        check_close(LABEL("call %d: d cost / d c_%d", rep, j), dc[j],
                    want_g[j], 1e-12);
        check_close(LABEL("call %d: d2 cost / d c_%d^2", rep, j), h[j],
                    want_h[j], 1e-12);
      }
  }
  return check_report();
}
