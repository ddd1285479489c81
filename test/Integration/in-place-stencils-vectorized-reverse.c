// In-place stencils, the shape whose reverse sweep reads and zeroes the
// adjoint of the slot an iteration overwrote while the next iteration adds
// into it: the loop-vectoriser preparation (Passes/ReverseSweepVectorizing.h)
// forwards the zero to the next iteration, moves record stores to the end of
// their block and computes carried adjoints before their use, and records
// of loops under a condition are reserved where the loop starts. Each
// variant is checked against central differences on every entry, at sizes
// from 3 (loops that do not run) up, at -O2/-O3 with AVX2, under
// AddressSanitizer, and through the opt flow with -O3 after it.
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 -march=x86-64-v3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O2 -march=x86-64-v3 -fsanitize=address -fno-omit-frame-pointer %s -lm -o %ta && %ta | FileCheck %s
// RUN: %plain_cc -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='tapestry,default<O3>' -mattr=+avx2 %t.ll -o %t.bc
// RUN: %plain_cc %t.bc -lm -o %to && %to | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

/* The heat stencil of tools/bench/heat.c. */
double heat(double *u, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    double left = u[0];
    for (int i = 1; i < n - 1; i++) {
      double here = u[i];
      u[i] = here + 0.2 * (left - 2 * here + u[i + 1]) - 0.01 * here * here;
      left = here;
    }
  }
  double loss = 0;
  for (int i = 0; i < n; i++)
    loss += u[i] * u[i];
  return loss;
}

/* Two neighbours on each side, two carried values. */
double wide(double *u, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    double l2 = u[0], l1 = u[1];
    for (int i = 2; i < n - 2; i++) {
      double here = u[i];
      u[i] = 0.5 * here + 0.1 * (l2 + l1 + u[i + 1] + u[i + 2]) +
             0.05 * sin(here);
      l2 = l1;
      l1 = here;
    }
  }
  double loss = 0;
  for (int i = 0; i < n; i++)
    loss += (i + 1) * u[i] * u[i];
  return loss;
}

/* Upwind: each entry from itself and the next one, no carried value. */
double upwind(double *u, int n, int steps) {
  for (int t = 0; t < steps; t++)
    for (int i = 0; i < n - 1; i++)
      u[i] = 0.7 * u[i] + 0.3 * u[i + 1] * u[i + 1];
  return u[0] + 2 * u[n / 2];
}

/* Descending: each entry from the one before it (already updated). */
double downwind(double *u, int n, int steps) {
  for (int t = 0; t < steps; t++)
    for (int i = n - 1; i > 0; i--)
      u[i] = 0.6 * u[i] + 0.4 * u[i - 1] - 0.02 * u[i] * u[i - 1];
  double loss = 0;
  for (int i = 0; i < n; i++)
    loss += u[i] * (1 + 0.1 * i);
  return loss;
}

/* A branch in the body. */
double clipped(double *u, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    double left = u[0];
    for (int i = 1; i < n - 1; i++) {
      double here = u[i];
      double v = here + 0.25 * (left - 2 * here + u[i + 1]);
      u[i] = v > 0.9 ? 0.9 + 0.1 * v : v;
      left = here;
    }
  }
  double loss = 0;
  for (int i = 0; i < n; i++)
    loss += u[i] * u[i] * u[i];
  return loss;
}

/* Float. */
float heatf(float *u, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    float left = u[0];
    for (int i = 1; i < n - 1; i++) {
      float here = u[i];
      u[i] = here + 0.2f * (left - 2 * here + u[i + 1]);
      left = here;
    }
  }
  float loss = 0;
  for (int i = 0; i < n; i++)
    loss += u[i] * u[i];
  return loss;
}

#define CHECK_STENCIL(F, N, STEPS)                                             \
  do {                                                                         \
    int n = (N), steps = (STEPS);                                              \
    double *u0 = malloc(sizeof(double) * n), *u = malloc(sizeof(double) * n),  \
           *du = malloc(sizeof(double) * n);                                   \
    for (int i = 0; i < n; i++)                                                \
      u0[i] = 0.5 + 0.3 * sin(0.7 * i + 0.2);                                  \
    memcpy(u, u0, sizeof(double) * n);                                         \
    memset(du, 0, sizeof(double) * n);                                         \
    __enzyme_autodiff((void *)F, enzyme_dup, u, du, enzyme_const, n,           \
                      enzyme_const, steps);                                    \
    for (int k = 0; k < n; k++) {                                              \
      const double h = 1e-6;                                                   \
      memcpy(u, u0, sizeof(double) * n);                                       \
      u[k] += h;                                                               \
      double fp = F(u, n, steps);                                              \
      memcpy(u, u0, sizeof(double) * n);                                       \
      u[k] -= h;                                                               \
      double fm = F(u, n, steps);                                              \
      char label[64];                                                          \
      snprintf(label, sizeof label, #F " n=%d steps=%d d/du[%d]", n, steps,    \
               k);                                                             \
      check_close(label, du[k], (fp - fm) / (2 * h), 1e-6);                    \
    }                                                                          \
    free(u0);                                                                  \
    free(u);                                                                   \
    free(du);                                                                  \
  } while (0)

int main(void) {
  static const int sizes[][2] = {{3, 4}, {4, 3}, {5, 7}, {13, 5}, {41, 20}};
  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    CHECK_STENCIL(heat, sizes[s][0], sizes[s][1]);
    CHECK_STENCIL(wide, sizes[s][0], sizes[s][1]);
    CHECK_STENCIL(upwind, sizes[s][0], sizes[s][1]);
    CHECK_STENCIL(downwind, sizes[s][0], sizes[s][1]);
    CHECK_STENCIL(clipped, sizes[s][0], sizes[s][1]);
  }
  /* Float: against central differences of the float program, loosely. */
  for (int n = 3; n <= 37; n += 17) {
    float u0[37], u[37], du[37];
    for (int i = 0; i < n; i++)
      u0[i] = 0.5f + 0.3f * sinf(0.7f * i);
    memcpy(u, u0, sizeof(float) * n);
    memset(du, 0, sizeof(float) * n);
    __enzyme_autodiff((void *)heatf, enzyme_dup, u, du, enzyme_const, n,
                      enzyme_const, 6);
    for (int k = 0; k < n; k++) {
      const float h = 1e-2f;
      memcpy(u, u0, sizeof(float) * n);
      u[k] += h;
      double fp = heatf(u, n, 6);
      memcpy(u, u0, sizeof(float) * n);
      u[k] -= h;
      double fm = heatf(u, n, 6);
      char label[64];
      snprintf(label, sizeof label, "heatf n=%d d/du[%d]", n, k);
      check_close(label, du[k], (fp - fm) / (2 * h), 2e-3);
    }
  }
  return check_report();
}
