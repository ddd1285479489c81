// A graphics user's program in float: the luminance-weighted distance of a
// colour from a target, with two float parameters (gamma, gain) returned
// as enzyme_out derivatives in a struct of two floats (the C ABI returns
// it packed in one vector register). Analytic derivatives in double.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

typedef struct {
  float dgamma, dgain;
} GradF;
extern int enzyme_out, enzyme_const;
extern GradF __enzyme_autodiff(void *, ...);

static const float lum[3] = {0.2126f, 0.7152f, 0.0722f};

float colour_error(float gamma, float gain, const float *rgb,
                   const float *target) {
  float e = 0.0f;
  for (int c = 0; c < 3; ++c) {
    float v = gain * powf(rgb[c], gamma) - target[c];
    e += lum[c] * v * v;
  }
  return e;
}

int main(void) {
  float rgb[3] = {0.8f, 0.45f, 0.2f}, target[3] = {0.6f, 0.3f, 0.1f};
  float gamma = 2.2f, gain = 1.1f;
  GradF g = __enzyme_autodiff((void *)colour_error, enzyme_out, gamma,
                              enzyme_out, gain, enzyme_const, rgb,
                              enzyme_const, target);
  double wg = 0, wk = 0;
  for (int c = 0; c < 3; ++c) {
    double p = pow(rgb[c], gamma);
    double v = gain * p - target[c];
    wg += lum[c] * 2 * v * gain * p * log(rgb[c]);
    wk += lum[c] * 2 * v * p;
  }
  check_close("d/dgamma", g.dgamma, wg, 1e-5);
  check_close("d/dgain", g.dgain, wk, 1e-5);
  return check_report();
}
