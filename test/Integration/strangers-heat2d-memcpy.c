// A PDE user's explicit 2-D heat solver on stack arrays double u[N][N],
// the new field computed into a second array and copied back with memcpy
// each step, boundary held fixed; the gradient of a weighted sum of the
// final field with respect to the initial field and the diffusivity
// (enzyme_out). The map is linear in u0, so d/du0 is checked against the
// adjoint solver run by hand (the transpose stencil); d/dkappa against a
// central finite difference.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <string.h>

#define N 8
#define STEPS 12

extern int enzyme_dup, enzyme_out;
extern double __enzyme_autodiff(void *, ...);

static void step(double u[N][N], double kappa) {
  double v[N][N];
  memcpy(v, u, sizeof v);
  for (int i = 1; i < N - 1; ++i)
    for (int j = 1; j < N - 1; ++j)
      v[i][j] = u[i][j] + kappa * (u[i + 1][j] + u[i - 1][j] + u[i][j + 1] +
                                   u[i][j - 1] - 4 * u[i][j]);
  memcpy(u, v, sizeof v);
}

double heat(double u0[N][N], double kappa) {
  double u[N][N];
  memcpy(u, u0, sizeof u);
  for (int s = 0; s < STEPS; ++s)
    step(u, kappa);
  double r = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      r += (1 + 0.1 * i - 0.05 * j) * u[i][j];
  return r;
}

int main(void) {
  double u0[N][N], du0[N][N] = {{0}};
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      u0[i][j] = sin(0.5 * i) * cos(0.3 * j) + 0.1 * i;
  double kappa = 0.15;
  double dk = __enzyme_autodiff((void *)heat, enzyme_dup, u0, du0, enzyme_out,
                                kappa);
  // Adjoint by hand: lambda_T = weights, lambda_{s-1} = S^T lambda_s.
  double lam[N][N], nl[N][N];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      lam[i][j] = 1 + 0.1 * i - 0.05 * j;
  for (int s = 0; s < STEPS; ++s) {
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) {
        int interior = i > 0 && i < N - 1 && j > 0 && j < N - 1;
        nl[i][j] = interior ? (1 - 4 * kappa) * lam[i][j] : lam[i][j];
      }
    for (int i = 1; i < N - 1; ++i)
      for (int j = 1; j < N - 1; ++j) {
        nl[i + 1][j] += kappa * lam[i][j];
        nl[i - 1][j] += kappa * lam[i][j];
        nl[i][j + 1] += kappa * lam[i][j];
        nl[i][j - 1] += kappa * lam[i][j];
      }
    memcpy(lam, nl, sizeof lam);
  }
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      check_close("d/du0", du0[i][j], lam[i][j], 1e-12);
  check_close("d/dkappa", dk, CENTRAL_DIFF(heat(u0, t_), kappa, 1e-6), 1e-6);
  return check_report();
}
