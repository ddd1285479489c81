// LAPACK's matrix copy dlacpy_/slacpy_ (Fortran spelling: Debian's OpenBLAS
// has no LAPACKE): forward copies the shadow of the copied part, reverse
// adds it to A's adjoint and clears it in B's, by calling dlacpy_, dlaset_
// and daxpy_ per column. Upper, lower and full parts ('u' lower case too),
// tall and wide matrices inside larger leading dimensions; B holds earlier
// values (from the inputs) outside the copied part, whose derivative must
// survive. Reverse mode against central finite differences, forward
// against reverse; single precision against an analytic gradient.
// RUN: %clang -O0 %s -lopenblas -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lopenblas -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lopenblas -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lopenblas -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
#include <string.h>

void dlacpy_(const char *uplo, const int *m, const int *n, const double *A,
             const int *lda, double *B, const int *ldb);
void slacpy_(const char *uplo, const int *m, const int *n, const float *A,
             const int *lda, float *B, const int *ldb);

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#include "../Integration/Inputs/gradcheck.h"

#include "Inputs/kernel-check.h"

/* A nonlinear loss over every element of a 5 x 5 array (ld 5): each one
 * weighted differently, so a misplaced element shows. */
static double loss25(const double *B) {
  double s = 0;
  for (int i = 0; i < 25; i++)
    s += (0.3 + 0.1 * i) * B[i] * B[i] + 0.05 * i * B[i];
  return s;
}

/* p[0:20] is A (ld 5, 4 columns), p[20:45] B's earlier contents (ld 5). The
 * copied block is m x n at A[1], B[6]. */
#define LACPY_KERNEL(name, UPLO, M, N)                                         \
  __attribute__((noinline)) double name(double *p) {                           \
    double B[25];                                                              \
    int m = M, n = N, lda = 5, ldb = 5;                                        \
    for (int i = 0; i < 25; i++)                                               \
      B[i] = p[20 + i] * p[20 + i];                                            \
    dlacpy_(UPLO, &m, &n, p + 1, &lda, B + 6, &ldb);                           \
    p[1] = 0; /* A overwritten after the call */                               \
    return loss25(B);                                                          \
  }                                                                            \
  KERNEL(name, 45)

LACPY_KERNEL(f_upper_wide, "U", 3, 4)
LACPY_KERNEL(f_upper_tall, "u", 4, 3)
LACPY_KERNEL(f_lower_wide, "L", 3, 4)
LACPY_KERNEL(f_lower_tall, "l", 4, 2)
LACPY_KERNEL(f_full, "A", 4, 4)

/* A copy of a copy: the second copy's adjoint flows through the first. */
__attribute__((noinline)) double f_chain(double *p) {
  double B[25] = {0}, C[25];
  int m = 3, n = 3, five = 5, three = 3;
  for (int i = 0; i < 25; i++)
    C[i] = p[i];
  dlacpy_("L", &m, &n, p + 25, &three, B, &five);
  dlacpy_("U", &m, &n, B, &five, C + 1, &five);
  return loss25(C) + loss25(B);
}
KERNEL(f_chain, 34)

/* Single precision, full copy of a 2 x 3 block: loss sum_i w_i B_i^2 over
 * B (ld 3, 3 columns, row 2 untouched): d/dA(i,j) = 2 w_k A(i,j) for the
 * copied B element k, and the untouched row's own derivative. */
__attribute__((noinline)) float s_loss(float *A, float *Bold) {
  float B[9];
  int m = 2, n = 3, lda = 2, ldb = 3;
  for (int i = 0; i < 9; i++)
    B[i] = Bold[i];
  slacpy_("X", &m, &n, A, &lda, B, &ldb);
  float s = 0;
  for (int i = 0; i < 9; i++)
    s += (1.0f + i) * B[i] * B[i];
  return s;
}
static void s_check(void) {
  float A[6], Bold[9], dA[6] = {0}, dB[9] = {0};
  for (int i = 0; i < 6; i++)
    A[i] = 0.3f * i - 0.7f;
  for (int i = 0; i < 9; i++)
    Bold[i] = 0.2f * i + 0.1f;
  __enzyme_autodiff((void *)s_loss, enzyme_dup, A, dA, enzyme_dup, Bold, dB);
  for (int j = 0; j < 3; j++)
    for (int i = 0; i < 3; i++) {
      int k = i + 3 * j;
      if (i < 2) {
        check_close(LABEL("s_loss: d/dA(%d,%d)", i, j), dA[i + 2 * j],
                    2 * (1.0 + k) * A[i + 2 * j], 1e-5);
        check_close(LABEL("s_loss: d/dBold[%d]", k), dB[k], 0, 1e-6);
      } else {
        check_close(LABEL("s_loss: d/dBold[%d]", k), dB[k],
                    2 * (1.0 + k) * Bold[k], 1e-5);
      }
    }
}

int main(void) {
  f_upper_wide_check(1);
  f_upper_tall_check(2);
  f_lower_wide_check(3);
  f_lower_tall_check(4);
  f_full_check(5);
  f_chain_check(6);
  s_check();
  return check_report();
}
