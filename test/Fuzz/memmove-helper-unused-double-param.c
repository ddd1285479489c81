// Known bug (XFAIL), found by the all-features fuzz campaign on 3 Dec 2026
// (seed 3860, features all,vectorize,realloc,sort,constptr,fnptr,byval,tape,
// batch; rejected, also when compiled directly with -fpass-plugin at -O0 and
// -O2). A noinline helper whose only effect on memory is to move elements of
// its double array argument (memmove here; in the fuzz program a memcpy into
// a local array and back into the argument, its other computations dead)
// and which also takes a floating-point parameter is rejected with "cannot
// tell what the memory this instruction copies holds (float, double,
// integers or pointers): nothing in the function or its callees reads or
// writes it with a type", though its caller reads and writes the array as
// double. The same helper without the unused `double p` (or with a typed
// store `q[5] = p` added) compiles and gets the values below, so the
// program is differentiable and the rejection is the bug.
// Expected values are analytic: the memmove makes a[2] = x^2 and a[5] the
// old a[3], so f = x^2 a[1] + a[3]: d/dx = 2 x a[1] = 2, d/da[1] = x^2 =
// 0.25, d/da[3] = 1, and 0 for the other elements (a[0] is overwritten
// before it is read, a[2], a[4] and a[5] are overwritten by the memmove).
// XFAIL: *
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <string.h>

extern int enzyme_dup, enzyme_out;
double __enzyme_autodiff(void *, ...);

static __attribute__((noinline)) void h(double *q, double p) {
  memmove(q + 2, q, 4 * sizeof *q);
}

double f(double *a, double x) {
  a[0] = x * x;
  h(a, 0.5);
  return a[2] * a[1] + a[5];
}

int main(void) {
  double a[6] = {1, 2, 3, 4, 5, 6}, da[6] = {0};
  double want[6] = {0, 0.25, 0, 1, 0, 0};
  double dx =
      __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_out, 0.5);
  check_close("d/dx", dx, 2.0, 1e-15);
  for (int j = 0; j < 6; j++)
    check_close("d/da", da[j], want[j], 1e-15);
  return check_report();
}
