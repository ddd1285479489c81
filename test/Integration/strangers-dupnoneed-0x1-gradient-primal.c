// Known bug: Enzyme's sparse-Hessian idiom passes the gradient's primal to
// forward mode over the gradient as enzyme_dupnoneed, (double *)0x1 (its
// Sparse tests, e.g. sqrtspring.cpp, do; docs/enzyme-compatibility.md
// said this works, "the derivative leaves dupnoneed memory alone"). But
// the gradient function's primal reads that memory (the reverse sweep
// accumulates g[i] += ...), and Tapestry runs those accesses, so the
// program dies with SIGSEGV (exit 139), no message, at every -O level.
// The values of g are never needed for the tangent (d(g + a) = dg + da),
// so the loads and stores of g can be dropped, as Enzyme does. Reduced
// from strangers-ring-spring-sparse-hessian.c, which passes a scratch
// array instead (as sparse-todense-triplets.cpp does).
// Expected: the Hessian column of f = x0^2 x1 along e_0, (2 x1, 2 x0).
// XFAIL: *
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

double f(const double *x) { return x[0] * x[0] * x[1]; }

void grad(const double *x, double *g) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
}

int main(void) {
  double x[2] = {1.5, 2.0}, tx[2] = {1, 0}, tg[2] = {0, 0};
  __enzyme_fwddiff((void *)grad, enzyme_dup, x, tx, enzyme_dupnoneed,
                   (double *)0x1, tg);
  check_close("H[0][0]", tg[0], 2 * x[1], 1e-14);
  check_close("H[1][0]", tg[1], 2 * x[0], 1e-14);
  return check_report();
}
