// Buffers filled by memcpy (or a copy loop the optimiser turns into one)
// and then read only by BLAS: nothing else in the function says they hold
// doubles (floats), but a BLAS routine's vector and matrix arguments are
// arrays of its precision, which the type analysis now notes. Was "cannot
// tell what the memory this instruction copies holds" (found by a probe of
// Enzyme users' programs). f = w . copy(x) + sum(A copy(x)) in double and
// in float: df/dx = w + A^T 1, df/dw = x, df/dA_ij = x_j.
// RUN: %clang -O0 %s -lopenblas -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lopenblas -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lopenblas -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lopenblas -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <cblas.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

double f(const double *x, const double *w, const double *A) {
  double t[3], y[2];
  memcpy(t, x, sizeof t);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, 2, 3, 1.0, A, 3, t, 1, 0.0, y, 1);
  return cblas_ddot(3, t, 1, w, 1) + y[0] + y[1];
}

float g(const float *x, const float *w) {
  float t[4];
  for (int i = 0; i < 4; ++i)
    t[i] = x[i];
  return cblas_sdot(4, t, 1, w, 1);
}

int main(void) {
  double x[3] = {1, 2, 3}, w[3] = {0.5, -1, 2}, A[6] = {1, 2, 3, 4, 5, 6};
  double dx[3] = {0}, dw[3] = {0}, dA[6] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, w, dw,
                    enzyme_dup, A, dA);
  for (int j = 0; j < 3; ++j) {
    check_close("df/dx", dx[j], w[j] + A[j] + A[3 + j], 1e-14);
    check_close("df/dw", dw[j], x[j], 1e-14);
    for (int i = 0; i < 2; ++i)
      check_close("df/dA", dA[3 * i + j], x[j], 1e-14);
  }
  float xs[4] = {1, -2, 3, 0.5f}, ws[4] = {2, 1, -1, 4};
  float dxs[4] = {0}, dws[4] = {0};
  __enzyme_autodiff((void *)g, enzyme_dup, xs, dxs, enzyme_dup, ws, dws);
  for (int i = 0; i < 4; ++i) {
    check_close("dg/dx", dxs[i], ws[i], 1e-6);
    check_close("dg/dw", dws[i], xs[i], 1e-6);
  }
  return check_report();
}
