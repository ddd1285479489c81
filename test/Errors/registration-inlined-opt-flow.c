// The opt flow (clang -O2 -emit-llvm, then opt -passes=tapestry): clang's
// inliner had put the body of 'step', whose derivative is registered, into
// 'f' before Tapestry ran, and f's derivative came out of step's body (a
// step function: 1, where the registration gives 3 exp(-x^2) + 1 = 3.34 at
// x = 0.5), without a word. Now a registered function the optimiser was
// free to inline and of which no call is left is an error at its
// registration, saying to mark it noinline; marked so, the registration is
// used (and the same source through clang with the plugin is right, as the
// pass runs before inlining).
// RUN: %plain_cc -O2 -g -S -emit-llvm %s -o %t.ll
// RUN: not %opt -passes=tapestry %t.ll -o /dev/null 2>&1 | FileCheck %s
// CHECK: registration-inlined-opt-flow.c:[[@LINE+18]]:{{.*}}'step' has a registered derivative (__enzyme_register_gradient_step), but this module was optimised before Tapestry ran and no call to 'step' is left in it{{.*}}Mark 'step' __attribute__((noinline)) for this flow
// RUN: %plain_cc -O2 -DNOINLINE -S -emit-llvm %s -o %t2.ll
// RUN: %opt -passes=tapestry %t2.ll -o %t2.bc
// RUN: %plain_cc %t2.bc -lm -o %t2 && %t2 | FileCheck %s --check-prefix=RIGHT
// RUN: %clang -O2 %s -lm -o %t3 && %t3 | FileCheck %s --check-prefix=RIGHT
// RIGHT: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <math.h>

extern int enzyme_out;
double __enzyme_autodiff(void *, ...);

#ifdef NOINLINE
__attribute__((noinline))
#endif
double step(double x) { return x > 0 ? 1.0 : 0.0; }
double step_aug(double x) { return step(x); }
double step_rev(double x, double d) { return d * exp(-x * x); }
void *__enzyme_register_gradient_step[3] = {(void *)step, (void *)step_aug,
                                            (void *)step_rev};

double f(double x) { return step(x) * 3.0 + x; }

int main(void) {
  double g = __enzyme_autodiff((void *)f, enzyme_out, 0.5);
  check_close("registered derivative used", g, 3 * exp(-0.25) + 1, 1e-12);
  return check_report();
}
