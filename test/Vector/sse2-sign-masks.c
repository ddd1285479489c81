// SSE2 sign-bit operations on a __m128d with the mask on either side:
// clang's headers leave the constant where the source put it, and the
// plugin runs before InstCombine moves it right. |v| as
// _mm_andnot_pd(-0.0, v) and _mm_and_pd(0x7FF..F, v), -v as
// _mm_xor_pd(-0.0, v) and _mm_xor_pd(v, -0.0), copysign(v, w) as
// (v & 0x7FF..F) | (-0.0 & w). Only the mask-first forms were refused as
// "a vector of 2 double is reinterpreted as a vector of 2 long" (review of
// session 32's change); all are fabs, fneg and copysign
// (Synthesis/FloatBitOperations.h). Reverse and forward against analytic
// derivatives; v = (x0, x1), w = (x2, x3), each lane summed:
//   f = sum |v| + sum -v (twice) + sum |v| + sum copysign(v, w) x0
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <emmintrin.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double sum(__m128d r) {
  double o[2];
  _mm_storeu_pd(o, r);
  return o[0] + o[1];
}

double f(const double *x) {
  __m128d v = _mm_loadu_pd(x), w = _mm_loadu_pd(x + 2);
  __m128d sign = _mm_set1_pd(-0.0);
  __m128d rest = _mm_castsi128_pd(_mm_set1_epi64x(0x7FFFFFFFFFFFFFFFLL));
  double a = sum(_mm_andnot_pd(sign, v)) + sum(_mm_xor_pd(sign, v)) +
             sum(_mm_xor_pd(v, sign)) + sum(_mm_and_pd(rest, v));
  __m128d cs = _mm_or_pd(_mm_and_pd(rest, v), _mm_and_pd(sign, w));
  return a + sum(cs) * x[0];
}

int main(void) {
  double x[4] = {0.7, -1.3, -2.0, 0.5}, dx[4] = {0};
  // a = 2|x0| + 2|x1| - 2 x0 - 2 x1; cs = (-|x0|, |x1|), sum = |x1| - |x0|
  // f = a + (|x1| - |x0|) x0, x0 > 0, x1 < 0:
  // df/dx0 = 2 - 2 - x0 + (|x1| - x0) = |x1| - 2 x0
  // df/dx1 = -2 - 2 + (-1) x0 = -4 - x0
  double want[4] = {1.3 - 2 * 0.7, -4 - 0.7, 0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  char what[32];
  for (int i = 0; i < 4; i++) {
    snprintf(what, sizeof what, "reverse d/dx%d", i);
    check_close(what, dx[i], want[i], 1e-14);
    double t[4] = {0};
    t[i] = 1;
    snprintf(what, sizeof what, "forward d/dx%d", i);
    check_close(what, __enzyme_fwddiff((void *)f, enzyme_dup, x, t), want[i],
                1e-14);
  }
  return check_report();
}
