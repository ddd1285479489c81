/* The test/Vector objectives: every kernel of kernels.h behind one
 * signature f(x, y, n), x and y active arrays of n doubles, so that one
 * harness checks them all. Each wrapper inlines its kernel (at -O3 with
 * n still unknown: the vectorised loop with its epilogue and alias checks
 * is what gets differentiated). */
#ifndef TAPESTRY_TEST_VECTOR_OBJECTIVES_H
#define TAPESTRY_TEST_VECTOR_OBJECTIVES_H

#include "kernels.h"

#ifndef N
#define N 37
#endif
/* A permutation of 0..N-1 (gather, scatter) and a constant 5 x N matrix. */
static int perm[N];
static double A5[5 * N];

double f_dot(double *x, double *y, int n) { return dot(x, y, n); }
double f_saxpy(double *x, double *y, int n) { return saxpy_loss(x, y, n); }
double f_norm(double *x, double *y, int n) { return norm(x, n) * y[0]; }
double f_matvec(double *x, double *y, int n) {
  return matvec(A5, x, y, 5, n);
}
double f_softmax(double *x, double *y, int n) { return softmax(x, y, n); }
double f_poly(double *x, double *y, int n) { return poly(y, x, n); }
double f_stencil(double *x, double *y, int n) { return stencil(x, y, n); }
double f_maxabs(double *x, double *y, int n) {
  return maxabs(x, n) + y[1] * y[2];
}
double f_minsq(double *x, double *y, int n) { return minsq(x, n) * y[0]; }
double f_mathy(double *x, double *y, int n) { return mathy(x, y, n); }
double f_prod(double *x, double *y, int n) { return prod(x, n) + y[0]; }
double f_gather(double *x, double *y, int n) {
  return gather(x, perm, n) + gather(y, perm, n / 2);
}
double f_masked(double *x, double *y, int n) { return masked(x, y, n); }
double f_scatter(double *x, double *y, int n) {
  return scatter_loss(x, y, perm, n);
}
double f_pairs(double *x, double *y, int n) {
  return pairs(x, n / 2) + pairs(y, n / 2);
}

static void setup_constants(void) {
  for (int i = 0; i < N; i++)
    perm[i] = (i * 7 + 3) % N;
  for (int i = 0; i < 5 * N; i++)
    A5[i] = sin(0.37 * i) + 0.1;
}

#endif
