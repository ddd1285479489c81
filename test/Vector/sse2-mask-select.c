// SSE2 code choosing between two vectors lane by lane with a compare's
// mask, as Eigen's pselect does under pmin, pmax and its linspaced
// packets: (m & a) | (~m & b) on the bits, with m from _mm_cmplt_pd; and
// the same blend with a constant mask, which the optimiser leaves after
// folding a compare (Eigen's LinSpaced at -O2). Both were "a vector of 2
// double is reinterpreted as a vector of 2 long"; they are selects
// (Synthesis/FloatBitOperations.h). The choice must be seen whole: at -O0
// a helper that stays a call, given the mask as an argument (Eigen's pand,
// por, pandnot at -O0), is still refused (docs/limitations.md); this one
// is always_inline, as clang's intrinsics are. Reverse and forward against
// analytic derivatives at x = (v0, v1, w0, w1) = (0.5, 2, 1, 1.5):
//   s = select(v < w, v^2, 3 w), k = (v0, w1), f = sum s + sum k^2
//   = v0^2 + 3 w1 + v0^2 + w1^2: df/dv0 = 4 v0, df/dw1 = 3 + 2 w1.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <emmintrin.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static inline __attribute__((always_inline)) __m128d
lane_select(__m128d m, __m128d a, __m128d b) {
  return _mm_or_pd(_mm_and_pd(m, a), _mm_andnot_pd(m, b));
}

double f(const double *x) {
  __m128d v = _mm_loadu_pd(x), w = _mm_loadu_pd(x + 2);
  __m128d s = lane_select(_mm_cmplt_pd(v, w), _mm_mul_pd(v, v),
                          _mm_mul_pd(w, _mm_set1_pd(3.0)));
  __m128d low = _mm_castsi128_pd(_mm_set_epi64x(0, -1));
  __m128d k = lane_select(low, v, w);
  __m128d t = _mm_add_pd(s, _mm_mul_pd(k, k));
  double out[2];
  _mm_storeu_pd(out, t);
  return out[0] + out[1];
}

int main(void) {
  double x[4] = {0.5, 2.0, 1.0, 1.5}, dx[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  double want[4] = {4 * x[0], 0, 0, 3 + 2 * x[3]};
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
