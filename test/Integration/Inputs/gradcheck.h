/* The gradient-check harness of the array-*.c end-to-end tests (include
 * after check.h, <stdlib.h> and <string.h>). */
#ifndef TAPESTRY_TEST_GRADCHECK_H
#define TAPESTRY_TEST_GRADCHECK_H

#include <stdio.h>

/* ---- Harness: every kernel's active inputs are packed into one vector p.
 * eval(p) runs the primal on fresh copies of the inputs (the kernels may
 * overwrite them) and returns a scalar; grad(p, g) runs reverse mode on fresh
 * copies with shadows and unpacks the adjoints into g (zeroed by the caller);
 * tangent(p, j) runs forward mode with the unit tangent e_j and returns the
 * directional derivative. compare() checks reverse against a central finite
 * difference (step 1e-6, 1e-6 relative) and forward against reverse (1e-10). */
#define FD_H 1e-6
#define FD_TOL 1e-6
#define FR_TOL 1e-10

static char label_[256];
#define LABEL(...) (snprintf(label_, sizeof label_, __VA_ARGS__), label_)

typedef double (*eval_fn)(const double *p);
typedef void (*grad_fn)(const double *p, double *g);
typedef double (*tangent_fn)(const double *p, int j);

static void compare(const char *name, int N, const double *p, eval_fn eval,
                    grad_fn grad, tangent_fn tangent) {
  double *g = calloc(N, sizeof *g), *q = malloc(N * sizeof *q);
  grad(p, g);
  for (int j = 0; j < N; j++) {
    memcpy(q, p, N * sizeof *q);
    q[j] = p[j] + FD_H;
    double fp = eval(q);
    q[j] = p[j] - FD_H;
    double fm = eval(q);
    double fd = (fp - fm) / (2 * FD_H);
    check_close(LABEL("%s: reverse vs finite difference, d/dp[%d]", name, j),
                g[j], fd, FD_TOL);
    check_close(LABEL("%s: forward vs reverse, d/dp[%d]", name, j),
                tangent(p, j), g[j], FR_TOL);
  }
  free(g);
  free(q);
}

/* A fresh heap copy of n doubles. */
static double *copy_of(const double *src, int n) {
  double *d = malloc((n ? n : 1) * sizeof *d);
  memcpy(d, src, n * sizeof *d);
  return d;
}

/* The slice [off, off + n) of the unit vector e_j, as a fresh array. */
static double *unit_slice(int j, int off, int n) {
  double *d = calloc(n ? n : 1, sizeof *d);
  if (j >= off && j < off + n)
    d[j - off] = 1.0;
  return d;
}

/* Deterministic, irregular test inputs in roughly [lo, hi]. */
static void fill(double *p, int n, double lo, double hi, int seed) {
  for (int i = 0; i < n; i++) {
    double u = 0.5 + 0.5 * sin(12.9898 * (i + 1) + 78.233 * seed);
    p[i] = lo + (hi - lo) * u;
  }
}

#endif
