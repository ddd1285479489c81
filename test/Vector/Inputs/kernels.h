/* Kernels as people write them, for the test/Vector programs. Compiled at
 * -O3 -march=native (with and without -ffast-math) the loop vectoriser
 * turns them into vector bodies with scalar epilogues and run-time alias
 * checks, using llvm.vector.reduce.fadd/fmul/fmax/fmin, masked stores,
 * gathers, scatters and interleaving shuffles. Every kernel takes its
 * length (at least 1) at run time; none uses infinities, which
 * -ffast-math rules out. */
#ifndef TAPESTRY_TEST_VECTOR_KERNELS_H
#define TAPESTRY_TEST_VECTOR_KERNELS_H

#include <math.h>

double dot(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

void saxpy(double a, const double *x, double *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

/* saxpy in place on y, then a loss of the result. */
double saxpy_loss(const double *x, double *y, int n) {
  saxpy(1.7, x, y, n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += y[i] * y[i];
  return s;
}

double norm(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrt(s);
}

/* y = A x (A is m x n, row-major), returning |y|^2. */
double matvec(const double *A, const double *x, double *y, int m, int n) {
  double s = 0;
  for (int i = 0; i < m; i++) {
    double t = 0;
    for (int j = 0; j < n; j++)
      t += A[i * n + j] * x[j];
    y[i] = t;
    s += t * t;
  }
  return s;
}

/* p = softmax(x) (max-shifted), returning sum_i (i + 1) p_i. */
double softmax(const double *x, double *p, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    m = fmax(m, x[i]);
  double z = 0;
  for (int i = 0; i < n; i++) {
    p[i] = exp(x[i] - m);
    z += p[i];
  }
  double s = 0;
  for (int i = 0; i < n; i++) {
    p[i] /= z;
    s += p[i] * (i + 1);
  }
  return s;
}

/* sum_i c(x_i) with the cubic c evaluated by Horner's rule. */
double poly(const double *c, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double xi = x[i];
    s += ((c[0] * xi + c[1]) * xi + c[2]) * xi + c[3];
  }
  return s;
}

/* A three-point smoothing into v, then sum_i v_i^2 u_i. */
double stencil(const double *u, double *v, int n) {
  double s = 0;
  for (int i = 1; i < n - 1; i++)
    v[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
  for (int i = 1; i < n - 1; i++)
    s += v[i] * v[i] * u[i];
  return s;
}

/* max_i |x_i| x_i: an fmax reduction. */
double maxabs(const double *x, int n) {
  double m = fabs(x[0]) * x[0];
  for (int i = 1; i < n; i++)
    m = fmax(m, fabs(x[i]) * x[i]);
  return m;
}

/* min_i (x_i - 0.3)^2 + sum_i x_i: an fmin reduction beside a sum. */
double minsq(const double *x, int n) {
  double m = (x[0] - 0.3) * (x[0] - 0.3), s = x[0];
  for (int i = 1; i < n; i++) {
    double d = x[i] - 0.3;
    m = fmin(m, d * d);
    s += x[i];
  }
  return m + s;
}

/* Elementwise math (vectorised as llvm.sin/exp/sqrt on vectors, or libmvec
 * calls with -fveclib=libmvec) into y, returning the sum. */
double mathy(const double *x, double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    y[i] = sin(x[i]) * exp(0.1 * x[i]) + sqrt(x[i] * x[i] + 1.0);
    s += y[i];
  }
  return s;
}

/* prod_i x_i: an fmul reduction. */
double prod(const double *x, int n) {
  double p = 1;
  for (int i = 0; i < n; i++)
    p *= x[i];
  return p;
}

/* sum_i x[idx[i]] x[i]: a gather (lanes may read the same element). */
double gather(const double *x, const int *idx, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[idx[i]] * x[i];
  return s;
}

/* A conditional store: masked stores. */
double masked(const double *x, double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] > 0.6) {
      y[i] = x[i] * x[i];
      s += y[i];
    }
  }
  return s;
}

/* y[idx[i]] = 3 x[i]: a scatter (idx is a permutation). */
void scatter(const double *x, double *y, const int *idx, int n) {
#pragma clang loop vectorize(assume_safety)
  for (int i = 0; i < n; i++)
    y[idx[i]] = x[i] * 3.0;
}
double scatter_loss(const double *x, double *y, const int *idx, int n) {
  scatter(x, y, idx, n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += y[i] * y[i] * (i + 1);
  return s;
}

/* Interleaved pairs (re, im): wide loads split by shufflevector. */
double pairs(const double *z, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += z[2 * i] * z[2 * i] - z[2 * i + 1] * z[2 * i + 1] * z[2 * i];
  return s;
}

#endif
