// A C user's program with a variable-length array declared inside a loop
// (clang saves and restores the stack pointer on every iteration), in
// float with lgammaf: a per-row softmax-weighted log-gamma feature.
// Gradient with respect to the matrix entries; expected values are
// central finite differences in double of the same float function.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);

float rows_feature(const float *a, int rows, int cols) {
  float total = 0.0f;
  for (int i = 0; i < rows; ++i) {
    float w[cols];
    float z = 0.0f;
    for (int j = 0; j < cols; ++j) {
      w[j] = expf(a[i * cols + j]);
      z += w[j];
    }
    for (int j = 0; j < cols; ++j)
      total += (w[j] / z) * lgammaf(2.0f + a[i * cols + j] * a[i * cols + j]);
  }
  return total;
}

static double feature_d(const double *a, int rows, int cols) {
  double total = 0;
  for (int i = 0; i < rows; ++i) {
    double z = 0;
    for (int j = 0; j < cols; ++j)
      z += exp(a[i * cols + j]);
    for (int j = 0; j < cols; ++j)
      total += exp(a[i * cols + j]) / z *
               lgamma(2.0 + a[i * cols + j] * a[i * cols + j]);
  }
  return total;
}

int main(void) {
  enum { R = 3, C = 4 };
  float a[R * C], da[R * C] = {0};
  double ad[R * C];
  for (int k = 0; k < R * C; ++k)
    ad[k] = a[k] = 0.2f * (k % 5) - 0.5f;
  __enzyme_autodiff((void *)rows_feature, enzyme_dup, a, da, enzyme_const, R,
                    enzyme_const, C);
  for (int k = 0; k < R * C; ++k) {
    double b[R * C];
    for (int l = 0; l < R * C; ++l)
      b[l] = ad[l];
    double want = CENTRAL_DIFF((b[k] = t_, feature_d(b, R, C)), ad[k], 1e-6);
    check_close("d/da", da[k], want, 2e-5);
  }
  return check_report();
}
