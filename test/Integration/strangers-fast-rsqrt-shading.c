// A graphics user's program in float: Lambert shading max(0, n.l / |n|)
// of a surface normal, normalised with the bit-level fast inverse square
// root (a float reinterpreted as an integer, which no derivative can flow
// through), so the user registers the rule Enzyme's users register for it:
// a reverse rule whose augmented forward returns nothing and whose reverse
// takes the float argument and the result's adjoint, d rsqrt(x) = -rsqrt(x)
// / (2 x) dx, and a forward rule of the same formula. The gradient of the
// total shading of a few normals with respect to the normals (reverse) and
// a tangent (forward) are checked against the chain rule written out with
// the same rsqrt approximation, and loosely against the exact 1/sqrt.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang_enzyme -O0 %s -S -emit-llvm -o - -mllvm -enzyme-inline=1 | lli - | FileCheck %s
// RUN: %clang_enzyme -O3 %s -S -emit-llvm -o - -mllvm -enzyme-inline=1 | lli - | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdint.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);

float fast_rsqrt(float x) {
  float half = 0.5f * x, y = x;
  int32_t bits;
  memcpy(&bits, &y, sizeof bits);
  bits = 0x5f3759df - (bits >> 1);
  memcpy(&y, &bits, sizeof y);
  y = y * (1.5f - half * y * y);
  return y * (1.5f - half * y * y);
}

void rsqrt_aug(float x) {}
float rsqrt_rev(float x, float dret) {
  return -dret * fast_rsqrt(x) / (2 * x);
}
float rsqrt_fwd(float x, float dx) { return -dx * fast_rsqrt(x) / (2 * x); }

void *__enzyme_register_gradient_rsqrt[3] = {
    (void *)fast_rsqrt, (void *)rsqrt_aug, (void *)rsqrt_rev};
void *__enzyme_register_derivative_rsqrt[2] = {(void *)fast_rsqrt,
                                               (void *)rsqrt_fwd};

float shade(const float *normals, const float *light, int n) {
  float total = 0;
  for (int i = 0; i < n; i++) {
    const float *v = normals + 3 * i;
    float len2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    float c = (v[0] * light[0] + v[1] * light[1] + v[2] * light[2]) *
              fast_rsqrt(len2);
    total += c > 0 ? c : 0;
  }
  return total;
}

#define NN 4

int main(void) {
  float nrm[3 * NN] = {0.3f, 0.9f, 0.4f,  -0.2f, 0.5f, 1.1f,
                       0.8f, -0.1f, 0.6f, -0.7f, -0.3f, 0.2f};
  float light[3] = {0.48f, 0.6f, 0.64f};
  float dn[3 * NN] = {0};
  __enzyme_autodiff((void *)shade, enzyme_dup, nrm, dn, enzyme_const, light,
                    enzyme_const, NN);

  float tn[3 * NN];
  for (int k = 0; k < 3 * NN; k++)
    tn[k] = (float)cos(0.7 * k);
  float tan_ = __enzyme_fwddiff((void *)shade, enzyme_dup, nrm, tn,
                                enzyme_const, light, enzyme_const, NN);

  double dir_rule = 0, dir_exact = 0;
  for (int i = 0; i < NN; i++) {
    const float *v = nrm + 3 * i;
    double len2 = (double)v[0] * v[0] + (double)v[1] * v[1] +
                  (double)v[2] * v[2];
    double dotl = (double)v[0] * light[0] + (double)v[1] * light[1] +
                  (double)v[2] * light[2];
    double q = fast_rsqrt((float)len2);
    int lit = dotl * q > 0;
    for (int k = 0; k < 3; k++) {
      /* d/dv_k [dotl * r(len2)] = l_k r + dotl r'(len2) 2 v_k */
      double rule = lit ? light[k] * q + dotl * (-q / (2 * len2)) * 2 * v[k]
                        : 0;
      double r = 1 / sqrt(len2);
      double exact = lit ? light[k] * r - dotl * r * r * r * v[k] : 0;
      char name[40];
      snprintf(name, sizeof name, "d/dn[%d][%d] (rule)", i, k);
      check_close(name, dn[3 * i + k], rule, 1e-5);
      snprintf(name, sizeof name, "d/dn[%d][%d] (exact)", i, k);
      check_close(name, dn[3 * i + k], exact, 1e-3);
      dir_rule += rule * tn[3 * i + k];
      dir_exact += exact * tn[3 * i + k];
    }
  }
  check_close("forward (rule)", tan_, dir_rule, 1e-5);
  check_close("forward (exact)", tan_, dir_exact, 1e-3);
  return check_report();
}
