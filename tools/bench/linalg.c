/* Dense kernels: dot product (n = 10^6) and matrix-vector product with a
 * squared-norm loss (n = 1000), gradients w.r.t. all inputs, checked
 * against analytic gradients.  linalg */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

double matvec_loss(const double *A, const double *x, double *y, int n) {
  double loss = 0;
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < n; j++)
      s += A[i * n + j] * x[j];
    y[i] = s;
    loss += s * s;
  }
  return loss;
}

int main(void) {
  int bad = 0;
  {
    int n = 1000000;
    double *a = malloc(8 * n), *b = malloc(8 * n), *da = malloc(8 * n),
           *db = malloc(8 * n);
    for (int i = 0; i < n; i++) {
      a[i] = sin(i);
      b[i] = cos(i);
    }
    double primal = BENCH_BEST_MS(5, { bench_sink = dot(a, b, n); });
#define DOT_GRADIENT                                                           \
  do {                                                                         \
    memset(da, 0, 8 * n);                                                      \
    memset(db, 0, 8 * n);                                                      \
    __enzyme_autodiff((void *)dot, enzyme_dup, a, da, enzyme_dup, b, db,       \
                      enzyme_const, n);                                        \
  } while (0)
    double grad = BENCH_BEST_MS(5, DOT_GRADIENT);
    BENCH_REPORT("dot_n1000000", primal, grad, DOT_GRADIENT);
    for (int i = 0; i < n; i += 99991)
      bad += da[i] != b[i] || db[i] != a[i];
  }
  {
    int n = 1000;
    double *A = malloc(8 * n * n), *dA = malloc(8 * n * n), *x = malloc(8 * n),
           *dx = malloc(8 * n), *y = malloc(8 * n), *dy = malloc(8 * n);
    for (int i = 0; i < n * n; i++)
      A[i] = sin(0.001 * i);
    for (int i = 0; i < n; i++)
      x[i] = cos(0.01 * i);
    double primal = BENCH_BEST_MS(5, { bench_sink = matvec_loss(A, x, y, n); });
#define MV_GRADIENT                                                            \
  do {                                                                         \
    memset(dA, 0, 8 * n * n);                                                  \
    memset(dx, 0, 8 * n);                                                      \
    memset(dy, 0, 8 * n);                                                      \
    __enzyme_autodiff((void *)matvec_loss, enzyme_dup, A, dA, enzyme_dup, x,   \
                      dx, enzyme_dup, y, dy, enzyme_const, n);                 \
  } while (0)
    double grad = BENCH_BEST_MS(5, MV_GRADIENT);
    BENCH_REPORT("matvec_n1000", primal, grad, MV_GRADIENT);
    /* d loss / dx_j = sum_i 2 y_i A_ij */
    matvec_loss(A, x, y, n);
    for (int j = 0; j < n; j += 97) {
      double want = 0;
      for (int i = 0; i < n; i++)
        want += 2 * y[i] * A[i * n + j];
      bad += fabs(dx[j] - want) > 1e-9 * (1 + fabs(want));
    }
  }
  printf("%s\n", bad ? "GRADIENT CHECK FAILED" : "gradient check OK");
  return bad != 0;
}
