// 2D arrays through pointer-to-pointer (double **), with a shadow array of
// row pointers to shadow rows, in reverse and forward mode against central
// finite differences: a matrix-vector loss, a 2D Jacobi-style stencil that
// overwrites the grid in place row by row, rows swapped by pointer, and a
// double ** built with malloc inside the function and freed.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_autodiff_d(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_v(void *, ...);

#include "Inputs/gradcheck.h"

#define R 4
#define C 5

/* sum_i (sum_j A[i][j] x[j])^2 + sum sin(A) */
double mv2d(double **A, const double *x, int m, int n) {
  double s = 0;
  for (int i = 0; i < m; i++) {
    double y = 0;
    for (int j = 0; j < n; j++)
      y += A[i][j] * x[j] + 0.1 * sin(A[i][j]);
    s += y * y;
  }
  return s;
}

/* in-place relaxation of the interior, several sweeps; returns a loss */
double relax2d(double **u, int m, int n, int sweeps) {
  for (int s = 0; s < sweeps; s++)
    for (int i = 1; i < m - 1; i++)
      for (int j = 1; j < n - 1; j++)
        u[i][j] =
            0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]) +
            0.1 * u[i][j] * u[i][j];
  double l = 0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      l += u[i][j] * (1 + i + 2 * j);
  return l;
}

/* reverse the order of the rows by swapping row pointers, then scale each
   row by its new index; the row pointers themselves are overwritten */
double swap_rows(double **A, int m, int n) {
  for (int i = 0; i < m / 2; i++) {
    double *t = A[i];
    A[i] = A[m - 1 - i];
    A[m - 1 - i] = t;
  }
  double s = 0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      s += (i + 1) * A[i][j] * A[i][(j + 1) % n];
  return s;
}

/* build an internal double ** (outer product of x with itself), reduce it */
double internal2d(const double *x, int n) {
  double **M = malloc(n * sizeof *M);
  for (int i = 0; i < n; i++) {
    M[i] = malloc(n * sizeof **M);
    for (int j = 0; j < n; j++)
      M[i][j] = x[i] * exp(0.2 * x[j]);
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      s += M[i][j] * M[j][i];
  for (int i = 0; i < n; i++)
    free(M[i]);
  free(M);
  return s;
}

/* A row-pointer matrix whose rows are slices of one allocation, in a shuffled
   order, from p (row-major), or zeroed if p is NULL. */
static const int row_slot[R] = {2, 0, 3, 1};
static double **rows_of(const double *p) {
  double **A = malloc(R * sizeof *A);
  double *store = calloc(R * C, sizeof *store);
  for (int i = 0; i < R; i++) {
    A[i] = store + row_slot[i] * C;
    if (p)
      memcpy(A[i], p + i * C, C * sizeof *store);
  }
  return A;
}
static void unrows(double **A, double *out) {
  for (int i = 0; i < R; i++)
    memcpy(out + i * C, A[i], C * sizeof **A);
}
static void free_rows(double **A) {
  double *store = A[0];
  for (int i = 1; i < R; i++)
    if (A[i] < store)
      store = A[i];
  free(store);
  free(A);
}

/* p = [A (R*C), x (C)] */
static double mv_eval(const double *p) {
  double **A = rows_of(p), *x = copy_of(p + R * C, C);
  double r = mv2d(A, x, R, C);
  free_rows(A), free(x);
  return r;
}
static void mv_grad(const double *p, double *g) {
  double **A = rows_of(p), **dA = rows_of(NULL), *x = copy_of(p + R * C, C);
  __enzyme_autodiff((void *)mv2d, enzyme_dup, A, dA, enzyme_dup, x, g + R * C,
                    enzyme_const, R, enzyme_const, C);
  unrows(dA, g);
  free_rows(A), free_rows(dA), free(x);
}
static double mv_tangent(const double *p, int j) {
  double *e = unit_slice(j, 0, R * C + C);
  double **A = rows_of(p), **tA = rows_of(e), *x = copy_of(p + R * C, C);
  double t = __enzyme_fwddiff((void *)mv2d, enzyme_dup, A, tA, enzyme_dup, x,
                              e + R * C, enzyme_const, R, enzyme_const, C);
  free_rows(A), free_rows(tA), free(x), free(e);
  return t;
}

/* GRID_TEST(F, (primal extra args), (enzyme extra args)); the row-pointer
   arrays may be permuted by F, so gradients are read through a copy of the
   caller's row pointers. */
#define UNPAREN(...) __VA_ARGS__
#define GRID_TEST(F, PX, EX)                                                   \
  static double F##_eval(const double *p) {                                    \
    double **A = rows_of(p);                                                   \
    double r = F(A, R, C UNPAREN PX);                                          \
    free_rows(A);                                                              \
    return r;                                                                  \
  }                                                                            \
  static void F##_grad(const double *p, double *g) {                           \
    double **A = rows_of(p), **dA = rows_of(NULL);                             \
    double **A0 = malloc(R * sizeof *A0), **dA0 = malloc(R * sizeof *dA0);     \
    memcpy(A0, A, R * sizeof *A), memcpy(dA0, dA, R * sizeof *dA);             \
    __enzyme_autodiff((void *)F, enzyme_dup, A, dA, enzyme_const, R,           \
                      enzyme_const, C UNPAREN EX);                             \
    /* the rows as the caller laid them out */                                 \
    unrows(dA0, g);                                                            \
    free_rows(A0), free_rows(dA0), free(A), free(dA);                          \
  }                                                                            \
  static double F##_tangent(const double *p, int j) {                          \
    double *e = unit_slice(j, 0, R * C);                                       \
    double **A = rows_of(p), **tA = rows_of(e);                                \
    double **A0 = malloc(R * sizeof *A0), **tA0 = malloc(R * sizeof *tA0);     \
    memcpy(A0, A, R * sizeof *A), memcpy(tA0, tA, R * sizeof *tA);             \
    double t = __enzyme_fwddiff((void *)F, enzyme_dup, A, tA, enzyme_const, R, \
                                enzyme_const, C UNPAREN EX);                   \
    free_rows(A0), free_rows(tA0), free(A), free(tA), free(e);                 \
    return t;                                                                  \
  }
GRID_TEST(relax2d, (, 6), (, enzyme_const, 6))
GRID_TEST(swap_rows, (), ())

#define NX 5
static double in_eval(const double *p) {
  double *x = copy_of(p, NX);
  double r = internal2d(x, NX);
  free(x);
  return r;
}
static void in_grad(const double *p, double *g) {
  double *x = copy_of(p, NX);
  __enzyme_autodiff((void *)internal2d, enzyme_dup, x, g, enzyme_const, NX);
  free(x);
}
static double in_tangent(const double *p, int j) {
  double *x = copy_of(p, NX), *tx = unit_slice(j, 0, NX);
  double t =
      __enzyme_fwddiff((void *)internal2d, enzyme_dup, x, tx, enzyme_const, NX);
  free(x), free(tx);
  return t;
}

int main(void) {
  double p[R * C + C];
  fill(p, R * C + C, -1.0, 1.0, 21);
  compare("mv2d", R * C + C, p, mv_eval, mv_grad, mv_tangent);
  compare("relax2d (in place, 6 sweeps)", R * C, p, relax2d_eval, relax2d_grad,
          relax2d_tangent);
  compare("swap_rows (row pointers overwritten)", R * C, p, swap_rows_eval,
          swap_rows_grad, swap_rows_tangent);
  compare("internal2d (malloc'd double **)", NX, p, in_eval, in_grad,
          in_tangent);
  return check_report();
}
