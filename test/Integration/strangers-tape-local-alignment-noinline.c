// strangers-tape-local-alignment.c with its helpers marked noinline, so
// that the aligned local is kept on the tape at every -O level.
// At -O1 and above the zeroing of its shadow (also on the tape) is emitted
// with the local's 16-byte alignment, an aligned vector store (movaps): it
// crashed with SIGSEGV while tape fields were only 8-byte aligned.
// RUN: %clang -O0 %s -o %t0 -lm && %t0 | FileCheck %s
// RUN: %clang -O1 %s -o %t1 -lm && %t1 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 -lm && %t2 | FileCheck %s
// RUN: %clang -O3 %s -o %t3 -lm && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdint.h>
extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);
static int misaligned = 0;
typedef struct { _Alignas(16) double v[2]; } vec2;
__attribute__((noinline)) static void fill(vec2 *t, const double *x) {
  if ((uintptr_t)t->v & 15) misaligned++;
  t->v[0] = x[0] * x[0];
  t->v[1] = sin(x[1]);
}
__attribute__((noinline)) static void combine(const vec2 *t, vec2 *out) {
  out->v[0] = t->v[0] * t->v[1];
  out->v[1] = t->v[1] * t->v[1];
}
__attribute__((noinline)) static void square(const double *x, vec2 *out) {
  vec2 t;
  fill(&t, x);
  combine(&t, out);
}
double f(const double *x) {
  vec2 r;
  square(x, &r);
  return r.v[0] + r.v[1] * x[0];
}
int main(void) {
  double x[2] = {0.7, 0.4}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  double s = sin(x[1]), c = cos(x[1]);
  check_close("dx0", dx[0], 2 * x[0] * s + s * s, 1e-12);
  check_close("dx1", dx[1], x[0] * x[0] * c + 2 * s * c * x[0], 1e-12);
  check_close("aligned", misaligned, 0, 0);
  return check_report();
}
