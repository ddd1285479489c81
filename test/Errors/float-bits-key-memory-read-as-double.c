// A double's bits changed by integer arithmetic (the sign flipped by xor),
// kept in an integer array and read back as doubles (the array copied into
// doubles): the store carried no derivative, and the gradient was half of
// -2x without an error (review 38; forward mode too). Now an error, while
// keys kept in memory only to be compared are accepted
// (test/Integration/float-bits-radix-sort.c).
// RUN: not %clang -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK: error: tapestry: cannot differentiate 'negated_sum': an active floating-point value is reinterpreted as a long here; derivatives cannot flow through bit manipulation
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

double negated_sum(const double *x, int n) {
  uint64_t *bits = malloc(n * sizeof *bits);
  double *back = malloc(n * sizeof *back);
  for (int i = 0; i < n; i++) {
    uint64_t u;
    memcpy(&u, &x[i], sizeof u);
    bits[i] = u ^ 0x8000000000000000ull;
  }
  memcpy(back, bits, n * sizeof *back);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += back[i] * x[i];
  free(bits);
  free(back);
  return s;
}
void gradient(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)negated_sum, enzyme_dup, x, dx, enzyme_const, n);
}
