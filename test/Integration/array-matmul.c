// Matrix-matrix products through enzyme_dup arrays: C = A B written into an
// output array with |C|^2 as the loss, and a void C = A B with a seeded output
// shadow (consumed by the reverse sweep), in reverse and forward mode against
// central finite differences. Run-time sizes, i-k-j loop order.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_autodiff_d(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_v(void *, ...);

#include "Inputs/gradcheck.h"

#define M 3
#define K 4
#define N 5
#define NA (M * K)
#define NB (K * N)
#define NC (M * N)
/* p = [A (M*K), B (K*N), C_in (M*N)], all row-major */
#define NP (NA + NB + NC)

/* C = A B, loss = sum C^2 + sum sin(C) */
double matmul_loss(const double *A, const double *B, double *C, int m, int k,
                   int n) {
  for (int i = 0; i < m * n; i++)
    C[i] = 0;
  for (int i = 0; i < m; i++)
    for (int l = 0; l < k; l++) {
      double a = A[i * k + l];
      for (int j = 0; j < n; j++)
        C[i * n + j] += a * B[l * n + j];
    }
  double s = 0;
  for (int i = 0; i < m * n; i++)
    s += C[i] * C[i] + sin(C[i]);
  return s;
}

static double mm_eval(const double *p) {
  double *A = copy_of(p, NA), *B = copy_of(p + NA, NB),
         *C = copy_of(p + NA + NB, NC);
  double r = matmul_loss(A, B, C, M, K, N);
  free(A), free(B), free(C);
  return r;
}
static void mm_grad(const double *p, double *g) {
  double *A = copy_of(p, NA), *B = copy_of(p + NA, NB),
         *C = copy_of(p + NA + NB, NC);
  __enzyme_autodiff((void *)matmul_loss, enzyme_dup, A, g, enzyme_dup, B,
                    g + NA, enzyme_dup, C, g + NA + NB, enzyme_const, M,
                    enzyme_const, K, enzyme_const, N);
  free(A), free(B), free(C);
}
static double mm_tangent(const double *p, int j) {
  double *A = copy_of(p, NA), *B = copy_of(p + NA, NB),
         *C = copy_of(p + NA + NB, NC);
  double *tA = unit_slice(j, 0, NA), *tB = unit_slice(j, NA, NB),
         *tC = unit_slice(j, NA + NB, NC);
  double t = __enzyme_fwddiff(
      (void *)matmul_loss, enzyme_dup, A, tA, enzyme_dup, B, tB, enzyme_dup, C,
      tC, enzyme_const, M, enzyme_const, K, enzyme_const, N);
  free(A), free(B), free(C), free(tA), free(tB), free(tC);
  return t;
}

/* C = A B, void, i-j-l order with a scalar accumulator. */
void matmul(const double *A, const double *B, double *C, int m, int k, int n) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int l = 0; l < k; l++)
        s += A[i * k + l] * B[l * n + j];
      C[i * n + j] = s;
    }
}

static double seed[NC];
static double seed_dot(const double *C) {
  double s = 0;
  for (int i = 0; i < NC; i++)
    s += seed[i] * C[i];
  return s;
}
static double mmv_eval(const double *p) {
  double *A = copy_of(p, NA), *B = copy_of(p + NA, NB),
         *C = copy_of(p + NA + NB, NC);
  matmul(A, B, C, M, K, N);
  double r = seed_dot(C);
  free(A), free(B), free(C);
  return r;
}
static void mmv_grad(const double *p, double *g) {
  double *A = copy_of(p, NA), *B = copy_of(p + NA, NB),
         *C = copy_of(p + NA + NB, NC), *Cp = copy_of(p + NA + NB, NC);
  double *dC = g + NA + NB;
  memcpy(dC, seed, sizeof seed);
  __enzyme_autodiff((void *)matmul, enzyme_dup, A, g, enzyme_dup, B, g + NA,
                    enzyme_dup, C, dC, enzyme_const, M, enzyme_const, K,
                    enzyme_const, N);
  /* dC: the seed was consumed, C's initial contents have no influence. */
  matmul(A, B, Cp, M, K, N);
  for (int i = 0; i < NC; i++)
    check_close(LABEL("matmul: reverse mode computes the primal C[%d]", i),
                C[i], Cp[i], 1e-15);
  free(A), free(B), free(C), free(Cp);
}
static double mmv_tangent(const double *p, int j) {
  double *A = copy_of(p, NA), *B = copy_of(p + NA, NB),
         *C = copy_of(p + NA + NB, NC);
  double *tA = unit_slice(j, 0, NA), *tB = unit_slice(j, NA, NB),
         *tC = unit_slice(j, NA + NB, NC);
  __enzyme_fwddiff_v((void *)matmul, enzyme_dup, A, tA, enzyme_dup, B, tB,
                     enzyme_dup, C, tC, enzyme_const, M, enzyme_const, K,
                     enzyme_const, N);
  double t = seed_dot(tC);
  free(A), free(B), free(C), free(tA), free(tB), free(tC);
  return t;
}

/* Analytic check of the seeded reverse: dA = S B^T, dB = A^T S. */
static void matmul_analytic(const double *p) {
  double A[NA], B[NB], C[NC], dA[NA] = {0}, dB[NB] = {0}, dC[NC];
  memcpy(A, p, sizeof A);
  memcpy(B, p + NA, sizeof B);
  memcpy(dC, seed, sizeof dC);
  __enzyme_autodiff((void *)matmul, enzyme_dup, A, dA, enzyme_dup, B, dB,
                    enzyme_dup, C, dC, enzyme_const, M, enzyme_const, K,
                    enzyme_const, N);
  for (int i = 0; i < NC; i++)
    check_close(LABEL("matmul: output shadow consumed, dC[%d]", i), dC[i], 0,
                0);
  for (int i = 0; i < M; i++)
    for (int l = 0; l < K; l++) {
      double w = 0;
      for (int j = 0; j < N; j++)
        w += seed[i * N + j] * B[l * N + j];
      check_close(LABEL("matmul: dA[%d][%d] = (S B^T)", i, l), dA[i * K + l], w,
                  1e-14);
    }
  for (int l = 0; l < K; l++)
    for (int j = 0; j < N; j++) {
      double w = 0;
      for (int i = 0; i < M; i++)
        w += A[i * K + l] * seed[i * N + j];
      check_close(LABEL("matmul: dB[%d][%d] = (A^T S)", l, j), dB[l * N + j], w,
                  1e-14);
    }
}

int main(void) {
  double p[NP];
  fill(p, NP, -1.0, 1.0, 3);
  fill(seed, NC, -2.0, 2.0, 4);
  compare("matmul_loss", NP, p, mm_eval, mm_grad, mm_tangent);
  compare("matmul (seeded output)", NP, p, mmv_eval, mmv_grad, mmv_tangent);
  matmul_analytic(p);
  return check_report();
}
