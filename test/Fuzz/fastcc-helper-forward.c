// Reduced from the vectorize fuzz feature (seed 100 of the 100-seed
// campaign; seeds 4, 21, 25, 33, 36, 37, 50, 60, 74, 78, 89, 90 and 95 crash,
// hang or return garbage the same way): in optimised IR (clang -O3, what the
// staged vectorize pipeline hands to opt) a static noinline helper has
// become `internal fastcc`. The forward derivative of its caller f was then
// the single instruction `unreachable` (the derivative functions, cloned
// from the helper, kept fastcc while Tapestry's calls to them use the C
// convention; a call whose convention differs from its callee's is
// undefined, so the cleanup folded it away). Derivative functions now use
// the C convention. At run time
// __enzyme_fwddiff returned whatever is in the register (here f's primal),
// or falls through into the next function and crashes; the vectoriser's
// loop guards in the caller become llvm.assume of the wrong branch (runs
// past the arrays). The split augmented/reverse helpers are defined fastcc
// and called without it too. With -fpass-plugin (before GlobalOpt sets
// fastcc) the same program is right.
// RUN: %plain_cc -O3 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -S -o %t.d.ll
// RUN: %plain_cc -O0 %t.d.ll -lm -o %t && %t | FileCheck %s
// CHECK: PASS
#include <math.h>
#include <stdio.h>
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
static __attribute__((noinline)) double h0(double p0, double p1) {
  return p0 * p0 + 1.0;
}
double f(double x0) { return h0(x0, x0); }
int main(void) {
  double rev = __enzyme_autodiff((void *)f, 1.5);
  double fwd = __enzyme_fwddiff((void *)f, 1.5, 1.0);
  if (fabs(rev - 3.0) < 1e-15 && fabs(fwd - 3.0) < 1e-15)
    printf("PASS\n");
  else
    printf("FAIL rev %.17g fwd %.17g (want 3)\n", rev, fwd);
  return 0;
}
