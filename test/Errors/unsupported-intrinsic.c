// An x86 vector intrinsic (_mm256_max_pd) in differentiated code: the
// message advised registering a gradient for 'llvm.x86.avx.max.pd.256',
// which has no C name (probe25b M2). It now says what the intrinsic is and
// what to write instead.
// RUN: not %clang -O2 -mavx -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: tapestry: cannot differentiate 'f': the LLVM intrinsic 'llvm.x86.avx.max.pd.256' (what the compiler made of a builtin: an x86 vector intrinsic such as _mm256_max_pd, a coroutine, ...) has no derivative in Tapestry, and no C name to register one under; write that step in plain C or C++ arithmetic (std::max, a loop the compiler vectorises), or move it out of the differentiated code
#include <immintrin.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);

double f(const double *x) {
  __m256d a = _mm256_loadu_pd(x), m = _mm256_max_pd(a, _mm256_set1_pd(0.5));
  double o[4];
  _mm256_storeu_pd(o, _mm256_mul_pd(m, m));
  return o[0] + o[1] + o[2] + o[3];
}

void grad(double *x, double *g) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
}
