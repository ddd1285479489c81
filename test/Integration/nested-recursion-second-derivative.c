// Forward over reverse through a recursion three or more calls deep (found
// with the tape arena, issue 16 item 3; present before it with malloc'd
// tapes). f(x, d) = H_d sin(x) x (H_d = sum_{k<=d} 1/k) by recursion; the
// forward derivative of its one-shot gradient must be f'' = H_d (2 cos x -
// x sin x). From depth 3 on, f'' came out too small (depth 3 at x = 0.3:
// 2.68 instead of 3.34) while the gradient was right: a split caller took
// its kept callee's tape from the pointer the kept augmented forward
// returned, which has no shadow, so the derivative stored the tape itself
// as the tape's shadow and read primal values as tangents. The caller now
// reads the tape back from its call site's list, whose shadow the
// derivative follows like any linked list. fl adds a loop at each level
// (record arrays on every tape), which was refused before ("a pointer read
// from memory that also holds pointers to constant data").
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_const, enzyme_dup;
double __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

double f(double x, int d) {
  if (d == 0)
    return 0;
  return sin(x) * x / d + f(x, d - 1);
}

double fl(double x, int d, int m) {
  if (d == 0)
    return 0;
  double s = 0;
  for (int i = 0; i < m; i++)
    s += sin(x * (i + 1));
  return s * x + fl(x, d - 1, m);
}

void gradl(double x, int d, int m, double *g) {
  *g = __enzyme_autodiff((void *)fl, x, enzyme_const, d, enzyme_const, m);
}

void grad(double x, int d, double *g) {
  *g = __enzyme_autodiff((void *)f, x, enzyme_const, d);
}

int main(void) {
  for (int d = 1; d <= 6; d++) {
    double x = 0.3, g = 0, h = 0, H = 0;
    for (int k = 1; k <= d; k++)
      H += 1.0 / k;
    __enzyme_fwddiff((void *)grad, x, 1.0, enzyme_const, d, enzyme_dup, &g,
                     &h);
    char what[64];
    snprintf(what, sizeof what, "f' at depth %d", d);
    check_close(what, g, H * (cos(x) * x + sin(x)), 1e-12);
    snprintf(what, sizeof what, "f'' at depth %d", d);
    check_close(what, h, H * (2 * cos(x) - x * sin(x)), 1e-12);
  }
  for (int d = 1; d <= 5; d++) {
    double x = 0.3, g = 0, h = 0, want = 0;
    __enzyme_fwddiff((void *)gradl, x, 1.0, enzyme_const, d, enzyme_const, 3,
                     enzyme_dup, &g, &h);
    // d/dx^2 of d sum_{i=1..3} sin(i x) x
    for (int i = 1; i <= 3; i++)
      want += d * (2 * i * cos(i * x) - i * i * x * sin(i * x));
    char what[64];
    snprintf(what, sizeof what, "f'' with loops at depth %d", d);
    check_close(what, h, want, 1e-12);
  }
  return check_report();
}
