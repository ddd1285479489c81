// A program written for Enzyme's fixed-point entry point includes
// <enzyme/fixed_point.h>: it compiles up to the call, where the error names
// the feature and what to do instead (not "file not found"), with the
// header found through -fplugin alone as Enzyme's users build. The one
// error: a request differentiating the code around the call does not add
// "no derivative is known for external function '__enzyme_fixed_point'".
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang_fplugin -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: file not found
// CHECK: fixed-point-header.c:[[@LINE+19]]:{{[0-9]+}}: error: tapestry: __enzyme_fixed_point is Enzyme's entry point for derivatives of fixed-point iterations{{.*}}; Tapestry does not support it yet
// CHECK-NOT: no derivative is known
// CHECK-NOT: error:
// CHECK-NOT: PLEASE submit a bug report
#include <enzyme/fixed_point.h>
#include <math.h>

/* One Newton step for z = cos(a z); false once converged. */
static int step(int64_t i, double *z, const double *a) {
  double f = *z - cos(*a * *z);
  double df = 1 + *a * sin(*a * *z);
  double next = *z - f / df;
  int more = fabs(next - *z) > 1e-14 && i < 100;
  *z = next;
  return more;
}

double solve(double a) {
  double z = 0.5;
  __enzyme_fixed_point((void *)step, enzyme_fp_state, &z, sizeof z, &z, &a);
  return z;
}

double __enzyme_autodiff(void *, ...);
double dsolve(double a) { return __enzyme_autodiff((void *)solve, a); }
