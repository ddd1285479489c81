// setjmp in the differentiated function and a longjmp out of a callee when
// a logarithm's argument is not positive: the reverse sweep of what ran
// before the jump was skipped and the gradient came out 0 or -0 silently
// (probe25b W2). Reverse mode is now an error at the setjmp; forward mode,
// which follows the primal's own control flow, differentiates it (expected:
// the analytic derivative of the partial sum the fallback returns). A
// longjmp alone (its setjmp outside the differentiated code) leaves the
// whole derivative as exit would: accepted, and right when it does not
// jump (expected: analytic).
// RUN: not %clang -O0 -c %s -o /dev/null -DREVERSE 2>&1 | FileCheck %s --check-prefix=REV
// RUN: not %clang -O2 -c %s -o /dev/null -DREVERSE 2>&1 | FileCheck %s --check-prefix=REV
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// REV: error: tapestry: cannot differentiate 'model': setjmp and longjmp cannot be differentiated in reverse mode: a longjmp out of the code being differentiated skips the reverse sweep of what ran before it; return an error code instead (forward mode, __enzyme_fwddiff, differentiates it)
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <setjmp.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static jmp_buf env;

static double guarded_log(double x) {
  if (x <= 0)
    longjmp(env, 1);
  return log(x);
}

double model(double a) {
  volatile double s = 0;
  if (setjmp(env))
    return s;
  for (int i = 1; i <= 10; i++)
    s += guarded_log(a * (5 - i) + 1) / i;
  return s;
}

/* Jumps out only on bad input; the setjmp is the caller's. */
double sum_logs(double a) {
  double s = 0;
  for (int i = 1; i <= 4; i++)
    s += guarded_log(a * i + 1) / i;
  return s;
}

#ifdef REVERSE
double reverse(double a) { return __enzyme_autodiff((void *)model, a); }
#endif

int main(void) {
  double a = 0.7, want = 0;
  /* The terms i = 1..6 are added; i = 7 jumps (0.7 * -2 + 1 < 0). */
  for (int i = 1; i <= 6; i++)
    want += (5 - i) / (a * (5 - i) + 1) / i;
  check_close("forward", __enzyme_fwddiff((void *)model, a, 1.0), want,
              1e-12);
  double want4 = 0;
  for (int i = 1; i <= 4; i++)
    want4 += 1 / (a * i + 1);
  if (!setjmp(env))
    check_close("reverse, longjmp not taken",
                __enzyme_autodiff((void *)sum_logs, a), want4, 1e-12);
  return check_report();
}
