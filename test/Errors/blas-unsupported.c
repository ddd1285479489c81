// BLAS calls Tapestry cannot differentiate are errors at the call's line that
// name the routine and say what to do: Fortran BLAS given 64-bit integers
// (an ILP64 interface: Tapestry's rules read and pass 32-bit ones), an
// output array without a shadow written from active inputs, and BLAS and
// LAPACK routines with no rule (dsyrk, dlaset).
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefix=ILP64
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefix=ILP64
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefix=LASET
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefix=LASET
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=3 2>&1 | FileCheck %s --check-prefix=OUTPUT
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=4 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: tapestry: {{.*}}'cblas_dsyrk' is a BLAS/LAPACK routine (dsyrk) Tapestry has no derivative for yet
#include <cblas.h>

void dgemv_(const char *, const long *, const long *, const double *,
            const double *, const long *, const double *, const long *,
            const double *, double *, const long *);
void dlaset_(const char *, const int *, const int *, const double *,
             const double *, double *, const int *);
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

#if CASE == 1
void f(double *A, double *x, double *y) {
  long n = 2, one = 1;
  double alpha = 1, beta = 0;
  // ILP64: blas-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: {{.*}}'dgemv_' is passed a 64-bit integer (an ILP64 BLAS interface); Tapestry differentiates Fortran BLAS with 32-bit integers only
  dgemv_("N", &n, &n, &alpha, A, &n, x, &one, &beta, y, &one);
}
void g(double *A, double *dA, double *x, double *dx, double *y, double *dy) {
  __enzyme_autodiff((void *)f, A, dA, x, dx, y, dy);
}
#elif CASE == 2
void f(double *A, double *a) {
  int n = 2;
  // LASET: blas-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: {{.*}}'dlaset_' is a BLAS/LAPACK routine (dlaset) Tapestry has no derivative for yet
  dlaset_("A", &n, &n, a, a, A, &n);
}
void g(double *A, double *dA, double *a, double *da) {
  __enzyme_autodiff((void *)f, A, dA, a, da);
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
