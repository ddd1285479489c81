// Requests on functions this file only declares, registered here as like
// log (__enzyme_function_like) and as inactive (__enzyme_inactivefn): the
// registration says what the derivative is, so no body is needed; they
// were refused with "'fastLog' has no body in this translation unit"
// while a one-line caller of the same functions worked (review23b F4).
// Expected derivatives are analytic.
// RUN: %clang -O0 %s %S/Inputs/registered-target-bodies.c -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s %S/Inputs/registered-target-bodies.c -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>

extern int enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double fastLog(double a);
void *__enzyme_function_like[2] = {(void *)fastLog, "log"};
double slowthing(double a);
void *__enzyme_inactivefn[] = {(void *)slowthing};

int main(void) {
  check_close("declared-only function_like target, reverse",
              __enzyme_autodiff((void *)fastLog, enzyme_out, 2.0), 0.5, 1e-12);
  check_close("declared-only function_like target, forward",
              __enzyme_fwddiff((void *)fastLog, enzyme_dup, 2.0, 3.0), 1.5,
              1e-12);
  check_close("declared-only inactive target, reverse",
              __enzyme_autodiff((void *)slowthing, enzyme_out, 2.0), 0, 0);
  return check_report();
}
