// A machine-learning user's program in single precision: a two-layer
// classifier h = relu(W1 x + b1), z = W2 h + b2, p = softmax(z) computed
// the stable way (subtract the max logit), and the mean cross-entropy over
// a small batch with integer labels, -1/B sum_b log p_{b,label_b}.
// Gradient with respect to all four parameter arrays (enzyme_dup), the
// batch and labels constant. Analytic backprop in double:
// dz = (p - onehot)/B, dW2 = dz h^T, db2 = dz, dh = W2^T dz masked by h>0,
// dW1 = dh x^T, db1 = dh.
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

#define IN 4
#define HID 5
#define OUT 3
#define BATCH 4

static void softmax(const float *z, float *p, int n) {
  float m = z[0];
  for (int i = 1; i < n; ++i)
    if (z[i] > m)
      m = z[i];
  float s = 0.f;
  for (int i = 0; i < n; ++i) {
    p[i] = expf(z[i] - m);
    s += p[i];
  }
  for (int i = 0; i < n; ++i)
    p[i] /= s;
}

float xent(const float *W1, const float *b1, const float *W2, const float *b2,
           const float *xs, const int *labels) {
  float total = 0.f;
  for (int b = 0; b < BATCH; ++b) {
    const float *x = xs + b * IN;
    float h[HID], z[OUT], p[OUT];
    for (int i = 0; i < HID; ++i) {
      float a = b1[i];
      for (int j = 0; j < IN; ++j)
        a += W1[i * IN + j] * x[j];
      h[i] = a > 0.f ? a : 0.f;
    }
    for (int i = 0; i < OUT; ++i) {
      float a = b2[i];
      for (int j = 0; j < HID; ++j)
        a += W2[i * HID + j] * h[j];
      z[i] = a;
    }
    softmax(z, p, OUT);
    total -= logf(p[labels[b]]);
  }
  return total / BATCH;
}

int main(void) {
  float W1[HID * IN], b1[HID], W2[OUT * HID], b2[OUT], xs[BATCH * IN];
  float dW1[HID * IN] = {0}, db1[HID] = {0}, dW2[OUT * HID] = {0},
        db2[OUT] = {0};
  int labels[BATCH] = {2, 0, 1, 2};
  for (int k = 0; k < HID * IN; ++k)
    W1[k] = 0.35f * sinf(1.3f * k + 0.2f);
  for (int k = 0; k < HID; ++k)
    b1[k] = 0.1f * (k % 3) - 0.05f;
  for (int k = 0; k < OUT * HID; ++k)
    W2[k] = 0.5f * cosf(0.9f * k - 0.4f);
  for (int k = 0; k < OUT; ++k)
    b2[k] = 0.2f - 0.15f * k;
  for (int k = 0; k < BATCH * IN; ++k)
    xs[k] = 1.1f * sinf(0.7f * k + 1.0f);
  __enzyme_autodiff((void *)xent, enzyme_dup, W1, dW1, enzyme_dup, b1, db1,
                    enzyme_dup, W2, dW2, enzyme_dup, b2, db2, enzyme_const,
                    xs, enzyme_const, labels);

  double eW1[HID * IN] = {0}, eb1[HID] = {0}, eW2[OUT * HID] = {0},
         eb2[OUT] = {0};
  for (int b = 0; b < BATCH; ++b) {
    const float *x = xs + b * IN;
    double h[HID], z[OUT], p[OUT], dz[OUT], dh[HID], m = -1e300, s = 0;
    for (int i = 0; i < HID; ++i) {
      double a = b1[i];
      for (int j = 0; j < IN; ++j)
        a += (double)W1[i * IN + j] * x[j];
      h[i] = a > 0 ? a : 0;
    }
    for (int i = 0; i < OUT; ++i) {
      z[i] = b2[i];
      for (int j = 0; j < HID; ++j)
        z[i] += (double)W2[i * HID + j] * h[j];
      if (z[i] > m)
        m = z[i];
    }
    for (int i = 0; i < OUT; ++i)
      s += exp(z[i] - m);
    for (int i = 0; i < OUT; ++i) {
      p[i] = exp(z[i] - m) / s;
      dz[i] = (p[i] - (i == labels[b])) / BATCH;
      eb2[i] += dz[i];
      for (int j = 0; j < HID; ++j)
        eW2[i * HID + j] += dz[i] * h[j];
    }
    for (int j = 0; j < HID; ++j) {
      dh[j] = 0;
      for (int i = 0; i < OUT; ++i)
        dh[j] += W2[i * HID + j] * dz[i];
      if (h[j] <= 0)
        dh[j] = 0;
      eb1[j] += dh[j];
      for (int k = 0; k < IN; ++k)
        eW1[j * IN + k] += dh[j] * x[k];
    }
  }
  const double tol = 2e-5; /* float arithmetic */
  for (int k = 0; k < HID * IN; ++k)
    check_close("dW1", dW1[k], eW1[k], tol);
  for (int k = 0; k < HID; ++k)
    check_close("db1", db1[k], eb1[k], tol);
  for (int k = 0; k < OUT * HID; ++k)
    check_close("dW2", dW2[k], eW2[k], tol);
  for (int k = 0; k < OUT; ++k)
    check_close("db2", db2[k], eb2[k], tol);
  return check_report();
}
