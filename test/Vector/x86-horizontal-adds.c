// x86 horizontal adds and subtracts written with intrinsics (_mm_hadd_pd,
// _mm_hsub_ps, _mm256_hadd_pd, _mm256_hadd_ps), as Eigen's reductions
// use them on AVX-512 machines (-march=native): each is rewritten as lane
// selections added or subtracted lane by lane before differentiation; they
// were "the LLVM intrinsic 'llvm.x86.avx.hadd.pd.256' ... has no derivative
// in Tapestry". Reverse and forward against the analytic derivatives.
// REQUIRES: x86-avx2-fma
// RUN: %clang -O0 -mavx %s -o %t0 -lm && %t0 | FileCheck %s
// RUN: %clang -O2 -mavx %s -o %t2 -lm && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <immintrin.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

// Weighted lanes of each result, so that every lane's placement matters.
static double weigh(const double *r, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += (i + 1) * r[i];
  return s;
}

double f(const double *x, const float *y) {
  double r[14];
  __m128d a = _mm_loadu_pd(x), b = _mm_loadu_pd(x + 2);
  _mm_storeu_pd(r, _mm_hadd_pd(_mm_mul_pd(a, a), b)); // a0²+a1², b0+b1
  __m256d c = _mm256_loadu_pd(x), d = _mm256_loadu_pd(x + 4);
  _mm256_storeu_pd(r + 2, _mm256_hadd_pd(_mm256_mul_pd(c, d), d));
  _mm256_storeu_pd(r + 6, _mm256_hsub_pd(c, _mm256_mul_pd(d, d)));
  __m128 e = _mm_loadu_ps(y), g = _mm_loadu_ps(y + 4);
  float t[4];
  _mm_storeu_ps(t, _mm_hsub_ps(_mm_mul_ps(e, e), g));
  for (int i = 0; i < 4; ++i)
    r[10 + i] = t[i];
  return weigh(r, 14);
}

// The same in plain C.
static void lanes(const double *x, const float *y, double *r) {
  r[0] = x[0] * x[0] + x[1] * x[1];
  r[1] = x[2] + x[3];
  double cd[4], dd[4];
  for (int i = 0; i < 4; ++i) {
    cd[i] = x[i] * x[4 + i];
    dd[i] = x[4 + i] * x[4 + i];
  }
  r[2] = cd[0] + cd[1], r[3] = x[4] + x[5], r[4] = cd[2] + cd[3],
  r[5] = x[6] + x[7];
  r[6] = x[0] - x[1], r[7] = dd[0] - dd[1], r[8] = x[2] - x[3],
  r[9] = dd[2] - dd[3];
  r[10] = y[0] * y[0] - y[1] * y[1], r[11] = y[2] * y[2] - y[3] * y[3],
  r[12] = y[4] - y[5], r[13] = y[6] - y[7];
}

int main(void) {
  double x[8] = {0.3, -1.2, 0.7, 2.1, -0.4, 1.5, 0.9, -0.8}, dx[8] = {0};
  float y[8] = {0.5f, -0.25f, 1.5f, 0.75f, -1, 2, 0.125f, -0.5f},
        dy[8] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy);
  // Central differences of the plain-C version (exact for these
  // quadratics up to rounding).
  double h = 1e-5;
  for (int i = 0; i < 8; ++i) {
    double xp[8], xm[8], rp[14], rm[14];
    for (int k = 0; k < 8; ++k)
      xp[k] = xm[k] = x[k];
    xp[i] += h, xm[i] -= h;
    lanes(xp, y, rp), lanes(xm, y, rm);
    check_close("reverse d/dx", dx[i], (weigh(rp, 14) - weigh(rm, 14)) / (2 * h),
                1e-6);
  }
  const float wy[8] = {2 * 11 * 0.5f, -2 * 11 * -0.25f, 2 * 12 * 1.5f,
                       -2 * 12 * 0.75f, 13, -13, 14, -14};
  for (int i = 0; i < 8; ++i)
    check_close("reverse d/dy", dy[i], wy[i], 1e-6);
  double tx[8] = {1, 0, 0, 0, 0, 1, 0, 0};
  float ty[8] = {0, 0, 0, 0, 0, 0, 0, 1};
  double d = __enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_dup, y, ty);
  check_close("forward", d, dx[0] + dx[5] + dy[7], 1e-9);
  return check_report();
}
