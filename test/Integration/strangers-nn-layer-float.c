// A machine-learning user's program in float: a dense layer
// y = tanh(W x + b) followed by a squared-error loss, the gradient with
// respect to W and b (enzyme_dup) and the input x left constant. Analytic:
// r_i = 2 (y_i - t_i)(1 - y_i^2), dW_ij = r_i x_j, db_i = r_i.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

#define IN 7
#define OUT 5

extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);

float layer_loss(const float *W, const float *b, const float *x,
                 const float *t) {
  float loss = 0.0f;
  for (int i = 0; i < OUT; ++i) {
    float z = b[i];
    for (int j = 0; j < IN; ++j)
      z += W[i * IN + j] * x[j];
    float y = tanhf(z);
    loss += (y - t[i]) * (y - t[i]);
  }
  return loss;
}

int main(void) {
  float W[OUT * IN], b[OUT], x[IN], t[OUT];
  float dW[OUT * IN] = {0}, db[OUT] = {0};
  for (int i = 0; i < OUT * IN; ++i)
    W[i] = 0.1f * (float)((i * 7) % 11) - 0.5f;
  for (int i = 0; i < OUT; ++i) {
    b[i] = 0.05f * i - 0.1f;
    t[i] = 0.2f * i - 0.3f;
  }
  for (int j = 0; j < IN; ++j)
    x[j] = 0.3f * j - 0.8f;
  __enzyme_autodiff((void *)layer_loss, enzyme_dup, W, dW, enzyme_dup, b, db,
                    enzyme_const, x, enzyme_const, t);
  for (int i = 0; i < OUT; ++i) {
    double z = b[i];
    for (int j = 0; j < IN; ++j)
      z += (double)W[i * IN + j] * x[j];
    double y = tanh(z);
    double r = 2 * (y - t[i]) * (1 - y * y);
    check_close("db", db[i], r, 1e-5);
    for (int j = 0; j < IN; ++j)
      check_close("dW", dW[i * IN + j], r * x[j], 1e-5);
  }
  return check_report();
}
