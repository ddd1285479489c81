// The opt flow (clang -O2 -emit-llvm, then opt -passes=tapestry): clang's
// inliner had put the body of 'step', whose derivative is registered, into
// 'f' before Tapestry ran, and f's derivative came out of step's body (a
// step function: 1, where the registration gives 3 exp(-x^2) + 1 = 3.34 at
// x = 0.5), without a word. With debug information the inlined copy says
// where it came from: an error there. Without, a registered function that
// only its registration names any more gets a warning (it may have been
// inlined, or be unused). Marked noinline, the registration is used; and
// the same source through clang with the plugin is right, the pass running
// before inlining. A registered function that is a request's target, or
// is called through a table of function pointers, is not reported.
// RUN: %plain_cc -O2 -g -S -emit-llvm %s -o %t.ll
// RUN: not %opt -passes=tapestry %t.ll -o /dev/null 2>&1 | FileCheck %s
// CHECK: registration-inlined-opt-flow.c:[[@LINE+22]]:{{.*}}in function f {{.*}}code of 'step', which has a registered derivative (__enzyme_register_gradient_step), was inlined into 'f' by the optimiser before Tapestry ran, and would be differentiated through its body instead of by its registration. Mark 'step' __attribute__((noinline))
// RUN: %plain_cc -O2 -S -emit-llvm %s -o %t1.ll
// RUN: %opt -passes=tapestry %t1.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=WARN
// WARN: warning: {{.*}}'step' has a registered derivative (__enzyme_register_gradient_step), but this module was optimised before Tapestry ran and no call to 'step' is left in it: if the optimiser inlined it into the code a request differentiates, that code is differentiated through its body
// RUN: %plain_cc -O2 -g -DNOINLINE -S -emit-llvm %s -o %t2.ll
// RUN: %opt -passes=tapestry %t2.ll -o %t2.bc 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %plain_cc %t2.bc -lm -o %t2 && %t2 | FileCheck %s --check-prefix=RIGHT
// RUN: %plain_cc -O2 -g -DTARGETS -S -emit-llvm %s -o %t3.ll
// RUN: %opt -passes=tapestry %t3.ll -o %t3.bc 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %plain_cc %t3.bc -lm -o %t3 && %t3 | FileCheck %s --check-prefix=RIGHT
// RUN: %clang -O2 %s -lm -o %t4 && %t4 | FileCheck %s --check-prefix=RIGHT
// QUIET-NOT: tapestry
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

#ifdef TARGETS
// step itself as the request's target, and called through a table.
typedef double (*Fn)(double);
Fn table[2] = {step, step};
double viaTable(double x, int i) { return table[i & 1](x) * 2.0; }
#endif

int main(void) {
#ifdef TARGETS
  double d = __enzyme_autodiff((void *)step, enzyme_out, 0.5);
  check_close("step as the target", d, exp(-0.25), 1e-12);
  (void)viaTable;
#else
  double g = __enzyme_autodiff((void *)f, enzyme_out, 0.5);
  check_close("registered derivative used", g, 3 * exp(-0.25) + 1, 1e-12);
#endif
  return check_report();
}
