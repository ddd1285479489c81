// A numerical user's linear solver: Gaussian elimination with partial
// pivoting on a matrix held as an array of row pointers (rows swapped by
// swapping pointers, pivots chosen by fabs), then back substitution; the
// differentiated quantity is sum_i c_i x_i with A x = b. Analytic:
// lambda = A^{-T} c, dL/db = lambda, dL/dA = -lambda x^T (solved here by
// the same eliminator on A^T, with no AD).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <string.h>

#define N 5
extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);

static void solve(double *A, double *b, double *x) {
  double *rows[N];
  double aug[N][N + 1];
  for (int i = 0; i < N; ++i) {
    for (int j = 0; j < N; ++j)
      aug[i][j] = A[i * N + j];
    aug[i][N] = b[i];
    rows[i] = aug[i];
  }
  for (int k = 0; k < N; ++k) {
    int p = k;
    for (int i = k + 1; i < N; ++i)
      if (fabs(rows[i][k]) > fabs(rows[p][k]))
        p = i;
    double *t = rows[k];
    rows[k] = rows[p];
    rows[p] = t;
    for (int i = k + 1; i < N; ++i) {
      double f = rows[i][k] / rows[k][k];
      for (int j = k; j <= N; ++j)
        rows[i][j] -= f * rows[k][j];
    }
  }
  for (int i = N - 1; i >= 0; --i) {
    double s = rows[i][N];
    for (int j = i + 1; j < N; ++j)
      s -= rows[i][j] * x[j];
    x[i] = s / rows[i][i];
  }
}

double weighted_solution(double *A, double *b, const double *c) {
  double x[N];
  solve(A, b, x);
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += c[i] * x[i];
  return s;
}

int main(void) {
  double A[N * N], b[N], c[N], dA[N * N] = {0}, db[N] = {0};
  for (int i = 0; i < N; ++i) {
    for (int j = 0; j < N; ++j)
      A[i * N + j] = sin(1.0 + i * 3 + j * 7) + (i == (j + 2) % N ? 2.5 : 0);
    b[i] = cos(0.5 * i);
    c[i] = 1.0 + 0.5 * i;
  }
  double Acopy[N * N], bcopy[N], x[N], AT[N * N], lam[N], ccopy[N];
  memcpy(Acopy, A, sizeof A);
  memcpy(bcopy, b, sizeof b);
  solve(Acopy, bcopy, x);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      AT[i * N + j] = A[j * N + i];
  memcpy(ccopy, c, sizeof c);
  solve(AT, ccopy, lam);
  __enzyme_autodiff((void *)weighted_solution, enzyme_dup, A, dA, enzyme_dup,
                    b, db, enzyme_const, c);
  for (int i = 0; i < N; ++i) {
    check_close("dL/db", db[i], lam[i], 1e-11);
    for (int j = 0; j < N; ++j)
      check_close("dL/dA", dA[i * N + j], -lam[i] * x[j], 1e-11);
  }
  return check_report();
}
