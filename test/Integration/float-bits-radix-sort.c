// An LSD radix sort of doubles by the keys their bits give (flip every bit
// of a negative, set the sign bit of a positive: the keys order as the
// doubles do), as fast sorting code does: the keys are stored in an array,
// moved between two buffers swapped every pass, and their bytes pick the
// buckets; an index array follows them. The keys only decide the order, so
// no derivative flows through their bits, and the derivative flows through
// the elements the sorted indices pick. It was refused ("a double is
// reinterpreted as a long"): the check followed the bits through
// registers, not through memory. f(x) = sum_k (k + 1) x_(k)^2, x_(k) the
// k-th smallest: df/dx_i = 2 rank(x_i) x_i, rank from 1. Reverse and
// forward mode, against that formula.
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

enum { N = 7 };

static uint64_t key_of(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return (u >> 63) ? ~u : (u | 0x8000000000000000ull);
}

double ranked(const double *x, int n) {
  uint64_t *key = malloc(n * sizeof *key), *key2 = malloc(n * sizeof *key2);
  int *idx = malloc(n * sizeof *idx), *idx2 = malloc(n * sizeof *idx2);
  for (int i = 0; i < n; i++) {
    key[i] = key_of(x[i]);
    idx[i] = i;
  }
  for (int pass = 0; pass < 8; pass++) {
    int count[257] = {0};
    for (int i = 0; i < n; i++)
      count[((key[i] >> (8 * pass)) & 0xff) + 1]++;
    for (int b = 0; b < 256; b++)
      count[b + 1] += count[b];
    for (int i = 0; i < n; i++) {
      int d = (key[i] >> (8 * pass)) & 0xff;
      key2[count[d]] = key[i];
      idx2[count[d]] = idx[i];
      count[d]++;
    }
    uint64_t *tk = key;
    key = key2;
    key2 = tk;
    int *ti = idx;
    idx = idx2;
    idx2 = ti;
  }
  double s = 0;
  for (int k = 0; k < n; k++)
    s += (k + 1) * x[idx[k]] * x[idx[k]];
  free(key);
  free(key2);
  free(idx);
  free(idx2);
  return s;
}

int main(void) {
  // Negative and positive values, a negative zero's neighbour, ties of
  // magnitude with opposite signs.
  double x[N] = {0.5, -1.5, 2.25, -0.125, 3.0, 1.5, -3.0};
  int rank[N];
  for (int i = 0; i < N; i++) {
    rank[i] = 1;
    for (int j = 0; j < N; j++)
      rank[i] += x[j] < x[i];
  }
  double dx[N] = {0};
  __enzyme_autodiff((void *)ranked, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++)
    check_close("reverse", dx[i], 2.0 * rank[i] * x[i], 1e-12);
  for (int i = 0; i < N; i++) {
    double v[N] = {0};
    v[i] = 1;
    double t = __enzyme_fwddiff((void *)ranked, enzyme_dup, x, v,
                                enzyme_const, N);
    check_close("forward", t, 2.0 * rank[i] * x[i], 1e-12);
  }
  return check_report();
}
