// An external function (another file, no body here) that only receives a
// local char buffer and an int is not differentiated: memory known to hold
// only integers carries no derivative, whatever the call writes there.
// With a buffer of doubles it stays an error (test/Errors). Against the
// analytic derivative.
// RUN: %clang -O0 %s %S/Inputs/fill-label.c -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s %S/Inputs/fill-label.c -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
void fill_label(char *buf, int n);

double labelled_square(double x) {
  char buf[16];
  fill_label(buf, 16);
  return x * x * (buf[0] == 'a' ? 5.0 : 1.0);
}

int main(void) {
  check_close("external call on a char buffer",
              __enzyme_autodiff((void *)labelled_square, enzyme_out, 2.0), 20.0,
              1e-12);
  return check_report();
}
