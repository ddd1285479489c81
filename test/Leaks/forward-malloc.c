// LeakSanitizer, forward mode with heap memory: a vector-valued function
// (outputs through an enzyme_dupnoneed pointer) that builds a triangular
// table of malloc'd rows behind a malloc'd array of row pointers (so the
// shadow table holds shadow pointers), fills and reduces it, and frees it
// all; and a workspace calloc'd once and realloc'd to grow inside a loop.
// The program is compiled with AddressSanitizer and run with leak detection:
// no leak and no memory error may be reported, every derivative call must
// leave no heap bytes behind, and the tangents must match their analytic
// values.
// REQUIRES: lsan
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O0 %s -lm %tapestry_rt -o %t0 && %lsan_run %t0 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O2 %s -lm %tapestry_rt -o %t2 && %lsan_run %t2 2>&1 | FileCheck %s
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
// CHECK: ALL PASSED: 0 failure(s)
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
#include "Inputs/heap.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const;
void __enzyme_fwddiff(void *, ...);
double __enzyme_fwddiff_d(void *, ...);

#define TOL 1e-11

/* out_i = sum_{j <= i} p sin(p), p = x_i x_j, through rows r[i][0..i]. */
void table(const double *x, double *out, int n) {
  double **r = malloc(n * sizeof *r);
  for (int i = 0; i < n; i++) {
    r[i] = malloc((i + 1) * sizeof **r);
    for (int j = 0; j <= i; j++)
      r[i][j] = x[i] * x[j];
  }
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j <= i; j++)
      s += r[i][j] * sin(r[i][j]);
    out[i] = s;
  }
  for (int i = 0; i < n; i++)
    free(r[i]);
  free(r);
}
/* d out_i / d x_k */
static double table_d(const double *x, int i, int k) {
  double d = 0.0;
  for (int j = 0; j <= i; j++) {
    double p = x[i] * x[j];
    double dp = (k == i ? x[j] : 0.0) + (k == j ? x[i] : 0.0);
    d += (sin(p) + p * cos(p)) * dp;
  }
  return d;
}

/* w starts as 4 calloc'd cells and is realloc'd to twice its size whenever
 * the next x_i does not fit; w_i = log(1 + x_i^2), s = sum_i w_i w_(i/2). */
double workspace(const double *x, int n) {
  int cap = 4;
  double *w = calloc(cap, sizeof *w);
  for (int i = 0; i < n; i++) {
    if (i == cap) {
      cap *= 2;
      w = realloc(w, cap * sizeof *w);
    }
    w[i] = log(1.0 + x[i] * x[i]);
  }
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += w[i] * w[i / 2];
  free(w);
  return s;
}
static double workspace_d(const double *x, int n, int k) {
  /* ds/dw_m = sum over pairs (i, i/2) containing m; dw_k/dx_k = 2x/(1+x^2) */
  double dwk = 2 * x[k] / (1.0 + x[k] * x[k]), ds = 0.0;
  for (int i = 0; i < n; i++) {
    double wi = log(1.0 + x[i] * x[i]), wh = log(1.0 + x[i / 2] * x[i / 2]);
    if (i == k)
      ds += wh;
    if (i / 2 == k)
      ds += wi;
  }
  return ds * dwk;
}

static char label[128];
#define LABEL(...) (snprintf(label, sizeof label, __VA_ARGS__), label)

enum { N = 23 };

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = 0.2 + 0.9 * cos(0.7 * i);
  for (int rep = 0; rep < 2; rep++)
    for (int k = 0; k < N; k += 4) {
      double t[N] = {0}, out[N], dout[N], d = 0;
      t[k] = 1.0;
      HEAP_CHECK(LABEL("table e_%d", k), 1,
                 __enzyme_fwddiff((void *)table, enzyme_dup, x, t,
                                  enzyme_dupnoneed, out, dout, enzyme_const,
                                  N));
      for (int i = 0; i < N; i += 3)
        check_close(LABEL("table d out_%d / dx_%d", i, k), dout[i],
                    table_d(x, i, k), TOL);
      HEAP_CHECK(LABEL("workspace e_%d", k), 1,
                 d = __enzyme_fwddiff_d((void *)workspace, enzyme_dup, x, t,
                                        enzyme_const, N));
      check_close(LABEL("workspace d/dx_%d", k), d, workspace_d(x, N, k), TOL);
    }
  return check_report();
}
