// A double's sign flipped in place through a pointer cast to uint64_t
// (`*(uint64_t *)&x[i] ^= SIGN`, undefined under strict aliasing but
// written): the access carries TBAA's `long`, like a std::list's element
// count, which an integer added to it updates in place and is accepted
// (cxx-list-local-counted-iterator.cpp); a flip (xor) is bit manipulation
// of a double and stays an error at every level.
// RUN: not %clang -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK: error: tapestry: cannot differentiate 'flipped_sum': an active floating-point value is reinterpreted as a long here; derivatives cannot flow through bit manipulation
#include <stdint.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

double flipped_sum(double *x, int n) {
  for (int i = 0; i < n; i++)
    *(uint64_t *)&x[i] ^= 0x8000000000000000ull;
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * x[i];
  return s;
}
void gradient(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)flipped_sum, enzyme_dup, x, dx, enzyme_const, n);
}
