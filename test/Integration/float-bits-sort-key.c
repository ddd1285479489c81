// Integer keys made from the bits of doubles, as radix sorts of doubles
// make them (flip every bit of a negative, set the sign bit of a positive:
// the keys then order as the doubles do), only compared to choose elements:
// no derivative has to flow through them, and the derivative flows through
// the elements chosen. They were rejected ("derivatives cannot flow through
// bit manipulation", probe 37). Here: the larger of two by key, and an
// argsort by key (insertion sort of an index array) weighting the sorted
// values by rank. (Keys kept in arrays: float-bits-radix-sort.c.)
// Reverse and forward, against analytic derivatives.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { N = 6 };

static uint64_t key_of(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return (u >> 63) ? ~u : (u | 0x8000000000000000ull);
}

// 3 max(x0, x1) + min(x0, x1), the larger chosen by key.
double weighted_pair(const double *x) {
  int hi = key_of(x[0]) > key_of(x[1]) ? 0 : 1;
  return 3.0 * x[hi] + x[1 - hi];
}

// sum_k (k + 1) x_(k), x_(k) the k-th smallest, sorted by key.
double rank_weighted(const double *x, int n) {
  int *idx = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++)
    idx[i] = i;
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && key_of(x[idx[j - 1]]) > key_of(x[idx[j]]); j--) {
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

int main(void) {
  double pair[2] = {-1.5, 2.0}, dpair[2] = {0, 0};
  __enzyme_autodiff((void *)weighted_pair, enzyme_dup, pair, dpair);
  check_close("weighted_pair d/dx0", dpair[0], 1, 0);
  check_close("weighted_pair d/dx1", dpair[1], 3, 0);
  double e0[2] = {1, 0};
  check_close("weighted_pair forward d/dx0",
              __enzyme_fwddiff((void *)weighted_pair, enzyme_dup, pair, e0), 1,
              0);

  double x[N] = {0.25, -3.5, 1.75, -0.5, 4.0, -0.0625};
  double dx[N] = {0};
  __enzyme_autodiff((void *)rank_weighted, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    int rank = 0;
    for (int j = 0; j < N; j++)
      rank += x[j] < x[i];
    check_close("rank_weighted reverse", dx[i], rank + 1, 0);
    double e[N] = {0};
    e[i] = 1;
    check_close("rank_weighted forward",
                __enzyme_fwddiff((void *)rank_weighted, enzyme_dup, x, e,
                                 enzyme_const, N),
                rank + 1, 0);
  }
  return check_report();
}
