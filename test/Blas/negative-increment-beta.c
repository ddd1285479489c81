// y = alpha op(A) x + beta y with a negative incy: the derivative scales the
// shadow of y by beta with scal, which does nothing for a non-positive
// increment (BLAS), so the rules pass |incy| (scaling every element is the
// same in either direction). Once dy kept its seed unscaled: a wrong
// adjoint with no error (found in review). gemv and symv, reverse and
// forward, against the analytic derivative (vector element i of y with
// incy = -1 sits at y[n-1-i]).
// RUN: %clang -O0 %s -lopenblas -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lopenblas -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lopenblas -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lopenblas -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <cblas.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

/* column-major 2x2 A = [[1, 3], [2, 4]] */
void gemv_neg(double *A, double *x, double *y) {
  cblas_dgemv(CblasColMajor, CblasNoTrans, 2, 2, 1.5, A, 2, x, 1, 0.5, y, -1);
}
/* symmetric A = [[1, 2], [2, 5]] (upper triangle used) */
void symv_neg(double *A, double *x, double *y) {
  cblas_dsymv(CblasColMajor, CblasUpper, 2, 1.5, A, 2, x, 1, 0.5, y, -1);
}

static void grad(int sym, double *A, double *x, double *dx, double *y,
                 double *dy) {
  if (sym)
    __enzyme_autodiff((void *)symv_neg, enzyme_const, A, enzyme_dup, x, dx,
                      enzyme_dup, y, dy);
  else
    __enzyme_autodiff((void *)gemv_neg, enzyme_const, A, enzyme_dup, x, dx,
                      enzyme_dup, y, dy);
}
static void tangent(int sym, double *A, double *x, double *dx, double *y,
                    double *dy) {
  if (sym)
    __enzyme_fwddiff((void *)symv_neg, enzyme_const, A, enzyme_dup, x, dx,
                     enzyme_dup, y, dy);
  else
    __enzyme_fwddiff((void *)gemv_neg, enzyme_const, A, enzyme_dup, x, dx,
                     enzyme_dup, y, dy);
}

static void check_rev(const char *name, int sym, double *A, double Av[2][2]) {
  char what[64];
  for (int s = 0; s < 2; s++) {
    double x[2] = {0.7, -1.1}, y[2] = {0.3, 0.9}, dx[2] = {0}, dy[2] = {0};
    dy[s] = 1; /* seed on stored element s = vector element 1 - s */
    grad(sym, A, x, dx, y, dy);
    int i = 1 - s;
    for (int j = 0; j < 2; j++) {
      snprintf(what, sizeof what, "%s reverse seed %d: dx%d", name, s, j);
      check_close(what, dx[j], 1.5 * Av[i][j], 1e-14);
    }
    snprintf(what, sizeof what, "%s reverse seed %d: dy%d (beta)", name, s, s);
    check_close(what, dy[s], 0.5, 1e-14);
    snprintf(what, sizeof what, "%s reverse seed %d: dy%d", name, s, 1 - s);
    check_close(what, dy[1 - s], 0, 0);
  }
}

static void check_fwd(const char *name, int sym, double *A) {
  char what[64];
  double x[2] = {0.7, -1.1}, dx[2] = {0}, y[2] = {0.3, 0.9},
         dy[2] = {1.0, -2.0};
  /* A and x constant: dy_out = beta dy_in */
  tangent(sym, A, x, dx, y, dy);
  snprintf(what, sizeof what, "%s forward dy0", name);
  check_close(what, dy[0], 0.5, 1e-14);
  snprintf(what, sizeof what, "%s forward dy1", name);
  check_close(what, dy[1], -1.0, 1e-14);
}

int main(void) {
  double A[4] = {1, 2, 3, 4}, Av[2][2] = {{1, 3}, {2, 4}};
  double S[4] = {1, 0 /* unused lower */, 2, 5}, Sv[2][2] = {{1, 2}, {2, 5}};
  check_rev("gemv", 0, A, Av);
  check_rev("symv", 1, S, Sv);
  check_fwd("gemv", 0, A);
  check_fwd("symv", 1, S);
  return check_report();
}
