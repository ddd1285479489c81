// A loop entered in its middle (a goto into it: irreducible control flow)
// is no loop LoopInfo knows; the reverse sweep read records it never wrote
// and the gradient crashed at run time (found by review24). Reverse mode is
// now an error saying what to change; forward mode, which follows the
// primal's own control flow, differentiates it (checked against central
// finite differences).
// RUN: not %clang -O0 -g -c %s -o /dev/null -DREVERSE 2>&1 | FileCheck %s --check-prefix=REV
// RUN: not %clang -O2 -g -c %s -o /dev/null -DREVERSE 2>&1 | FileCheck %s --check-prefix=REV
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_const, enzyme_dup, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

// REV: irreducible-control-flow.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: cannot differentiate 'f': its control flow has a cycle that is entered in the middle (a goto into a loop, or two loops jumping into each other), which the reverse sweep cannot walk back; give the loop a single entry
__attribute__((noinline)) double f(double *x, int n, int flag) {
  double s = 0;
  int k = 0;
  if (flag)
    goto second;
first:
  for (int i = 0; i < 8; i++)
    s = sin(s) + x[i] * x[i];
  k++;
  if (k >= n)
    goto out;
second:
  s = s * 1.5 + x[k % 8];
  goto first;
out:
  return s;
}

int main(void) {
  double x[8], d[8] = {0};
  for (int i = 0; i < 8; i++)
    x[i] = 0.1 * (i + 1);
#ifdef REVERSE
  __enzyme_autodiff((void *)f, enzyme_dup, x, d, enzyme_const, 5,
                    enzyme_const, 1);
#endif
  char what[32];
  for (int i = 0; i < 8; i++) {
    double t[8] = {0};
    t[i] = 1;
    double g = __enzyme_fwddiff((void *)f, enzyme_dup, x, t, enzyme_const, 5,
                                enzyme_const, 1);
    double h = 1e-6, o = x[i];
    x[i] = o + h;
    double fp = f(x, 5, 1);
    x[i] = o - h;
    double fm = f(x, 5, 1);
    x[i] = o;
    snprintf(what, sizeof what, "forward d/dx[%d]", i);
    check_close(what, g, (fp - fm) / (2 * h), 1e-6);
  }
  return check_report();
}
