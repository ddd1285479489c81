// Enzyme's sparse Jacobian entry point __enzyme_todense(load, store, ...):
// a Hessian assembled as in Enzyme's Sparse tests (sqrtspring.cpp), by
// forward mode over the gradient with todense shadows: the input's shadow
// reads as the unit vector e_i (ident_load), and the gradient's shadow is
// written through sparse_store, which accumulates H[i][j]. Checked against
// the analytic Hessian of f(x) = sum_i (x_{i+1} - x_i)^3 + sum_i x_i^4.
// (Tapestry lowers the pointer's loads and stores to the calls; it does
// not skip zeros as Enzyme's -enzyme-auto-sparsity does.)
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stddef.h>
#include <stdint.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);
double *__enzyme_todense(void *, ...);

#define N 6

static double f(size_t n, const double *x) {
  double out = 0;
  for (size_t i = 0; i + 1 < n; i++) {
    double d = x[i + 1] - x[i];
    out += d * d * d;
  }
  for (size_t i = 0; i < n; i++)
    out += x[i] * x[i] * x[i] * x[i];
  return out;
}

static void grad_f(size_t n, const double *x, double *dx) {
  __enzyme_autodiff((void *)f, enzyme_const, n, enzyme_dup, x, dx);
}

static int ident_stores, sparse_loads, sparse_stores;

// The input's tangent: e_i, read at byte offset idx.
static double ident_load(int64_t idx, size_t i) {
  return (double)(idx / (int64_t)sizeof(double) == (int64_t)i);
}
static void ident_store(double val, int64_t idx, size_t i) { ident_stores++; }

// The gradient's tangent (column i of the Hessian): reads see 0, writes
// add to H[i][j].
static double sparse_load(int64_t idx, size_t i, double *H) {
  sparse_loads++;
  return 0.0;
}
static void sparse_store(double val, int64_t idx, size_t i, double *H) {
  sparse_stores++;
  H[i * N + idx / sizeof(double)] += val;
}

static void hessian(const double *x, double *H) {
  double dx[N];
  for (size_t i = 0; i < N; i++) {
    memset(dx, 0, sizeof dx);
    double *d_x = __enzyme_todense((void *)ident_load, (void *)ident_store, i);
    double *d_dx =
        __enzyme_todense((void *)sparse_load, (void *)sparse_store, i, H);
    __enzyme_fwddiff((void *)grad_f, enzyme_const, (size_t)N, enzyme_dup, x,
                     d_x, enzyme_dup, dx, d_dx);
  }
}

int main(void) {
  double x[N] = {0.3, -0.7, 1.2, 0.1, -1.5, 0.8};
  double H[N * N] = {0};
  hessian(x, H);
  double W[N * N] = {0};
  for (int i = 0; i + 1 < N; i++) {
    double d = x[i + 1] - x[i];
    W[i * N + i] += 6 * d;
    W[(i + 1) * N + i + 1] += 6 * d;
    W[i * N + i + 1] -= 6 * d;
    W[(i + 1) * N + i] -= 6 * d;
  }
  for (int i = 0; i < N; i++)
    W[i * N + i] += 12 * x[i] * x[i];
  char label[64];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      snprintf(label, sizeof label, "H[%d][%d] vs analytic", i, j);
      check_close(label, H[i * N + j], W[i * N + j], 1e-12);
    }
  check_close("the input's shadow is never written", ident_stores, 0, 0);
  check_close("the gradient's shadow was written", sparse_stores > 0, 1, 0);
  return check_report();
}
