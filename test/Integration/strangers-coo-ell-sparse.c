// A sparse-matrix user's program with the two formats CSR does not cover:
// coordinate (COO: parallel row/column/value arrays, entries in no
// particular order, duplicates summed) and ELLPACK (ELL: every row padded
// to the same width, padding marked by column -1). Loss
// L = sum_i w_i (A x)_i^2 + sum_i (B x)_i^3 with A in COO and B in ELL,
// differentiated with respect to both value arrays and x.
// Analytic: r_i = 2 w_i (A x)_i, q_i = 3 (B x)_i^2,
// dA_k = r_row(k) x_col(k), dB_ij = q_i x_col(ij) (0 on padding),
// dx = A^T r + B^T q.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);

#define N 7
#define NNZ 17
#define WIDTH 3

struct coo {
  int nnz;
  const int *row, *col;
  const double *val;
};

static void coo_matvec(const struct coo *a, const double *x, double *y,
                       int n) {
  memset(y, 0, n * sizeof(double));
  for (int k = 0; k < a->nnz; ++k)
    y[a->row[k]] += a->val[k] * x[a->col[k]];
}

static void ell_matvec(int n, int width, const int *col, const double *val,
                       const double *x, double *y) {
  for (int i = 0; i < n; ++i) {
    double s = 0.0;
    for (int j = 0; j < width; ++j) {
      int c = col[i * width + j];
      if (c < 0)
        break; /* padding */
      s += val[i * width + j] * x[c];
    }
    y[i] = s;
  }
}

double loss(const int *arow, const int *acol, const double *aval,
            const int *bcol, const double *bval, const double *x,
            const double *w) {
  struct coo a = {NNZ, arow, acol, aval};
  double ya[N], *yb = (double *)calloc(N, sizeof(double));
  coo_matvec(&a, x, ya, N);
  ell_matvec(N, WIDTH, bcol, bval, x, yb);
  double l = 0;
  for (int i = 0; i < N; ++i)
    l += w[i] * ya[i] * ya[i] + yb[i] * yb[i] * yb[i];
  free(yb);
  return l;
}

int main(void) {
  int arow[NNZ], acol[NNZ], bcol[N * WIDTH];
  double aval[NNZ], daval[NNZ] = {0}, bval[N * WIDTH], dbval[N * WIDTH] = {0};
  double x[N], dx[N] = {0}, w[N];
  for (int k = 0; k < NNZ; ++k) {
    /* scrambled order, and entries 3 and 15 hit the same (row, col) */
    arow[k] = (k * 5 + 2) % N;
    acol[k] = (k * 3 + 1) % N;
    aval[k] = 0.4 + 0.07 * k - 0.003 * k * k;
  }
  arow[15] = arow[3];
  acol[15] = acol[3];
  for (int i = 0; i < N; ++i) {
    int cnt = 1 + (i * 2) % WIDTH; /* rows of 1, 2 or 3 entries */
    for (int j = 0; j < WIDTH; ++j) {
      bcol[i * WIDTH + j] = j < cnt ? (i + 2 * j) % N : -1;
      bval[i * WIDTH + j] = j < cnt ? 0.3 - 0.05 * i + 0.2 * j : 99.0;
    }
    x[i] = 0.6 - 0.17 * i;
    w[i] = 1.0 + 0.3 * i;
  }
  __enzyme_autodiff((void *)loss, enzyme_const, arow, enzyme_const, acol,
                    enzyme_dup, aval, daval, enzyme_const, bcol, enzyme_dup,
                    bval, dbval, enzyme_dup, x, dx, enzyme_const, w);

  /* Reference: dense copies of A and B. */
  double A[N][N] = {{0}}, B[N][N] = {{0}};
  for (int k = 0; k < NNZ; ++k)
    A[arow[k]][acol[k]] += aval[k];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < WIDTH; ++j)
      if (bcol[i * WIDTH + j] >= 0)
        B[i][bcol[i * WIDTH + j]] += bval[i * WIDTH + j];
  double r[N], q[N], wantx[N] = {0};
  for (int i = 0; i < N; ++i) {
    double ya = 0, yb = 0;
    for (int j = 0; j < N; ++j) {
      ya += A[i][j] * x[j];
      yb += B[i][j] * x[j];
    }
    r[i] = 2 * w[i] * ya;
    q[i] = 3 * yb * yb;
  }
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i)
      wantx[j] += A[i][j] * r[i] + B[i][j] * q[i];
  for (int k = 0; k < NNZ; ++k)
    check_close("dA (COO)", daval[k], r[arow[k]] * x[acol[k]], 1e-12);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < WIDTH; ++j) {
      int c = bcol[i * WIDTH + j];
      check_close("dB (ELL)", dbval[i * WIDTH + j], c < 0 ? 0.0 : q[i] * x[c],
                  1e-12);
    }
  for (int i = 0; i < N; ++i)
    check_close("dx", dx[i], wantx[i], 1e-12);
  return check_report();
}
