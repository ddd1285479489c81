// Enzyme's -enzyme-strong-zero asks that a zero adjoint or tangent times an
// infinite or NaN partial derivative give 0; Tapestry does not guarantee
// that in every derivative rule, so the option set to true stops the
// build with an error naming it (never a NaN where the user asked for 0),
// with clang and with opt. Set to false (Enzyme's default) it is accepted,
// and the derivative below matches its analytic value.
// RUN: not %clang_fplugin -O1 -c %s -o /dev/null -mllvm -enzyme-strong-zero 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: %plain_cc -O1 %s -S -emit-llvm -o - | not %opt -passes=enzyme -enzyme-strong-zero=true -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: %clang_fplugin -O1 %s -o %t -lm -mllvm -enzyme-strong-zero=0 && %t | FileCheck %s --check-prefix=OK
// ERR: error: {{.*}}tapestry: Enzyme's option -enzyme-strong-zero (a zero adjoint or tangent times an infinite or NaN partial derivative gives 0) is not supported: Tapestry does not guarantee it in every derivative rule (some compute that product as IEEE arithmetic does, NaN); drop the option, or guard the operations whose partial derivatives can be infinite
// ERR-NOT: Unknown command line argument
// OK: d/dx = 6 (expected 6)
#include <stdio.h>
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double cube(double x) { return x * x * x; }
int main(void) {
  double d = __enzyme_autodiff((void *)cube, enzyme_out, 1.4142135623730951);
  printf("d/dx = %.6g (expected %.6g)\n", d, 3 * 2.0);
  return 0;
}
