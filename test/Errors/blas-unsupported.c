// BLAS calls Tapestry cannot differentiate are errors at the call's line that
// name the routine and say what to do: the derivative of gemv/gemm with
// respect to alpha or beta, of symv/trsv with respect to the matrix, an
// output array without a shadow written from active inputs, and a BLAS
// routine with no rule (dsyrk).
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefix=ALPHA
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefix=ALPHA
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefix=MATRIX
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefix=MATRIX
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=3 2>&1 | FileCheck %s --check-prefix=OUTPUT
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=4 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: tapestry: {{.*}}'cblas_dsyrk' is a BLAS/LAPACK routine (dsyrk) Tapestry has no derivative for yet
#include <cblas.h>

void dsymv_(const char *, const int *, const double *, const double *,
            const int *, const double *, const int *, const double *, double *,
            const int *);
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

#if CASE == 1
void f(double *A, double *x, double *y, double a) {
  // ALPHA: blas-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: {{.*}}the derivative of 'cblas_dgemv' with respect to its alpha argument is not supported yet; pass a constant there
  cblas_dgemv(CblasRowMajor, CblasNoTrans, 2, 2, a, A, 2, x, 1, 0.0, y, 1);
}
void g(double *A, double *dA, double *x, double *dx, double *y, double *dy) {
  __enzyme_autodiff((void *)f, A, dA, x, dx, y, dy, 2.0);
}
#elif CASE == 2
void f(double *A, double *x, double *y) {
  int n = 2, one = 1;
  double alpha = 1, beta = 0;
  // MATRIX: blas-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: {{.*}}the derivative of 'dsymv_' with respect to its matrix is not supported yet
  dsymv_("U", &n, &alpha, A, &n, x, &one, &beta, y, &one);
}
void g(double *A, double *dA, double *x, double *dx, double *y, double *dy) {
  __enzyme_autodiff((void *)f, A, dA, x, dx, y, dy);
}
#elif CASE == 3
void f(double *x, double *y) {
  // OUTPUT: blas-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: {{.*}}'cblas_daxpy' writes its result into memory that carries no derivative
  cblas_daxpy(2, 2.0, x, 1, y, 1);
}
void g(double *x, double *dx, double *y) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, y);
}
#else
void f(double *A, double *C) {
  cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, 2, 2, 1.0, A, 2, 0.0,
              C, 2);
}
void g(double *A, double *dA, double *C, double *dC) {
  __enzyme_autodiff((void *)f, A, dA, C, dC);
}
#endif
