// A pointer kept as an integer address (uintptr_t, 0 for "none yet") and
// chosen in a loop (an integer phi and select of ptrtoint values, cast back
// with inttoptr), as code written that way and the simplifier's choices
// between iterators look. Primal preparation chooses the pointers as
// pointers again. The adjoints through the address were dropped (0 for
// 6.25), and a first version of the rewrite sent them to other elements
// (review26b W2). Gradient against the analytic one at -O0, -O2 and in the
// opt flow.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %plain_cc -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cc %t.bc -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdint.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

/* s = sum_i [b_i >= 0] (0.5 x[b_{i-1}] x[i] + x[b_i]^2), b_i the last
   index up to i whose value exceeds t. */
__attribute__((noinline)) double last_above(double *x, int n, double t) {
  uintptr_t best = 0;
  double s = 0;
  for (int i = 0; i < n; i++) {
    if (best)
      s += 0.5 * *(double *)best * x[i];
    best = x[i] > t ? (uintptr_t)&x[i] : best;
    if (best)
      s += *(double *)best * *(double *)best;
  }
  return s;
}

int main(void) {
  enum { N = 6 };
  double x[N] = {0.1, 0.9, 0.2, 0.3, 1.2, 0.4}, dx[N] = {0}, t = 0.5;
  __enzyme_autodiff((void *)last_above, enzyme_dup, x, dx, enzyme_const, N,
                    enzyme_const, t);
  double want[N] = {0};
  int b = -1;
  for (int i = 0; i < N; i++) {
    if (b >= 0)
      want[b] += 0.5 * x[i], want[i] += 0.5 * x[b];
    if (x[i] > t)
      b = i;
    if (b >= 0)
      want[b] += 2 * x[b];
  }
  for (int i = 0; i < N; i++)
    check_close("d/dx", dx[i], want[i], 1e-12);
  return check_report();
}
