// SSE2 code of the kind Eigen's packet math is made of, differentiated as
// written (-fpass-plugin runs before clang's optimiser, so nothing has
// turned it into floating-point operations yet): the two lanes of a
// __m128d swapped through an integer shuffle (_mm_shuffle_epi32 on a cast
// vector: `shufflevector <4 x i32>` of a bitcast <2 x double>), a lane
// duplicated the same way, and an absolute value by a sign mask
// (_mm_and_pd, Eigen's pabs). Each was "a vector of 2 double is
// reinterpreted as a vector of 2 long" (probe27 F3). A shuffle that moves
// half a double is not a lane move and stays an error (-DHALF).
// f = x0 x1 + |x0| + |x1| + x0^2
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: not %clang -O0 -DHALF -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=HALF
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// HALF: error: tapestry: cannot differentiate 'f': a vector of 2 double is reinterpreted as a vector of 2 long here
#include "../Integration/Inputs/check.h"
#include <emmintrin.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double f(const double *x) {
  __m128d v = _mm_loadu_pd(x);
#ifdef HALF
  __m128d sw = _mm_castsi128_pd(_mm_shuffle_epi32(_mm_castpd_si128(v), 0x4B));
#else
  __m128d sw = _mm_castsi128_pd(_mm_shuffle_epi32(_mm_castpd_si128(v), 0x4E));
#endif
  __m128d lo = _mm_castsi128_pd(_mm_shuffle_epi32(_mm_castpd_si128(v), 0x44));
  const __m128d mask = _mm_castsi128_pd(
      _mm_setr_epi32(0xFFFFFFFF, 0x7FFFFFFF, 0xFFFFFFFF, 0x7FFFFFFF));
  __m128d p = _mm_add_pd(_mm_mul_pd(_mm_mul_pd(v, sw), _mm_set1_pd(0.5)),
                         _mm_and_pd(v, mask));
  p = _mm_add_pd(p, _mm_mul_pd(_mm_mul_pd(lo, lo), _mm_set1_pd(0.5)));
  double out[2];
  _mm_storeu_pd(out, p);
  return out[0] + out[1];
}

int main(void) {
  double x[2] = {0.7, -1.3}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  double want[2] = {x[1] + 1 + 2 * x[0], x[0] - 1};
  check_close("reverse d/dx0", dx[0], want[0], 1e-14);
  check_close("reverse d/dx1", dx[1], want[1], 1e-14);
  for (int i = 0; i < 2; i++) {
    double t[2] = {i == 0, i == 1};
    check_close(i ? "forward d/dx1" : "forward d/dx0",
                __enzyme_fwddiff((void *)f, enzyme_dup, x, t), want[i], 1e-14);
  }
  return check_report();
}
