/* A stand-in for an ILP64 Fortran BLAS (every integer 64-bit), compiled
 * without the plugin: ddot_ and daxpy_ read their integers as int64_t. */
#include <stdint.h>

double ddot_(const int64_t *n, const double *x, const int64_t *incx,
             const double *y, const int64_t *incy) {
  double s = 0;
  for (int64_t i = 0; i < *n; i++)
    s += x[i * *incx] * y[i * *incy];
  return s;
}

void daxpy_(const int64_t *n, const double *a, const double *x,
            const int64_t *incx, double *y, const int64_t *incy) {
  for (int64_t i = 0; i < *n; i++)
    y[i * *incy] += *a * x[i * *incx];
}
