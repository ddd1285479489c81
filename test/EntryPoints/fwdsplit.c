// __enzyme_fwdsplit: split forward mode. __enzyme_augmentfwd runs the primal
// and returns a tape (or fills a caller buffer: enzyme_allocated N,
// enzyme_tape buf); __enzyme_fwdsplit(f, values and tangents..., tape) then
// returns the tangent and frees the tape unless enzyme_nofree. Tangents are
// checked against analytic derivatives.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const, enzyme_allocated, enzyme_tape,
    enzyme_nofree;
typedef struct {
  void *tape;
  double primal;
} aug_d;
aug_d __enzyme_augmentfwd_d(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_augmentfwd_v(void *, ...);
int __enzyme_augmentsize(void *, ...);
double __enzyme_fwdsplit(void *, ...);
void __enzyme_fwdsplit_v(void *, ...);

__attribute__((noinline)) double g(double x, double y) {
  return sin(x) * y + x * x;
}

/* out[i] = x[i]^2 exp(x[i]) * s */
__attribute__((noinline)) void h(const double *x, double *out, int n,
                                 double s) {
  for (int i = 0; i < n; ++i)
    out[i] = x[i] * x[i] * exp(x[i]) * s;
}

/* A loop whose trip count the tape records, and heap scratch. */
__attribute__((noinline)) double norm(const double *x, int n) {
  double *sq = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    sq[i] = x[i] * x[i];
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += sq[i];
  free(sq);
  return sqrt(sum);
}

int main(void) {
  double x = 0.7, y = -1.3;
  aug_d a = __enzyme_augmentfwd_d((void *)g, x, y);
  check_close("g primal", a.primal, sin(x) * y + x * x, 1e-12);
  double dg = __enzyme_fwdsplit((void *)g, x, 1.0, y, 0.5, a.tape);
  check_close("g tangent", dg, (cos(x) * y + 2 * x) * 1.0 + sin(x) * 0.5,
              1e-12);

  enum { N = 5 };
  double xs[N] = {0.1, -0.4, 0.9, 1.3, -2.0}, out[N], dxs[N], dout[N];
  for (int i = 0; i < N; ++i)
    dxs[i] = 0.25 * (i + 1);
  double s = 1.5;
  void *t = __enzyme_augmentfwd((void *)h, enzyme_dup, xs, dxs, enzyme_dup,
                                out, dout, enzyme_const, N, enzyme_const, s);
  __enzyme_fwdsplit_v((void *)h, enzyme_dup, xs, dxs, enzyme_dup, out, dout,
                      enzyme_const, N, enzyme_const, s, t);
  for (int i = 0; i < N; ++i) {
    double v = xs[i];
    check_close("h primal", out[i], v * v * exp(v) * s, 1e-12);
    check_close("h tangent", dout[i], (2 * v + v * v) * exp(v) * s * dxs[i],
                1e-12);
  }

  /* Enzyme's caller-buffer form, markers first, and enzyme_nofree: the
   * buffer is the caller's. */
  int size = __enzyme_augmentsize((void *)norm, enzyme_dup, enzyme_const);
  void *buf = malloc(size > 0 ? size : 1);
  double dx2[N];
  for (int i = 0; i < N; ++i)
    dx2[i] = (i % 2) ? 1.0 : -0.5;
  __enzyme_augmentfwd_v((void *)norm, enzyme_allocated, size, enzyme_tape,
                        buf, enzyme_dup, xs, dx2, enzyme_const, N);
  double dn = __enzyme_fwdsplit((void *)norm, enzyme_allocated, size,
                                enzyme_tape, buf, enzyme_nofree, enzyme_dup,
                                xs, dx2, enzyme_const, N);
  double nrm = 0, dot = 0;
  for (int i = 0; i < N; ++i) {
    nrm += xs[i] * xs[i];
    dot += xs[i] * dx2[i];
  }
  nrm = sqrt(nrm);
  check_close("norm tangent", dn, dot / nrm, 1e-12);
  free(buf);
  return check_report();
}
