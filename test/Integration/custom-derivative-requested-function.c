// A registered gradient or forward derivative of f should also serve a
// request whose function is f itself, as it serves calls of f inside
// differentiated code (Enzyme uses the registration there too).
//
// XFAIL: *
// Known bug (issue 18, found while writing docs/custom-derivatives.md): the
// request for f itself differentiates f's body and ignores the
// registration, so k' comes out as 2x (the body's derivative) instead of
// the registered rule's 100; and for a function without a body the request
// is the error "'ext' has no body in this translation unit ... register a
// derivative for it", although a derivative is registered. The calls of k
// inside 'use' do take the registration (checked below, it passes).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

/* The rules return 100 times the seed on purpose: a registration that is
 * used is visible in the result. */
double k(double x) { return x * x; }
double k_aug(double x) { return k(x); }
double k_rev(double x, double d) {
  (void)x;
  return 100 * d;
}
double k_fwd(double x, double dx) {
  (void)x;
  return 100 * dx;
}
void *__enzyme_register_gradient_k[3] = {(void *)k, (void *)k_aug,
                                         (void *)k_rev};
void *__enzyme_register_derivative_k[2] = {(void *)k, (void *)k_fwd};

double use(double x) { return k(x); }

int main(void) {
  check_close("a call of k in reverse mode uses k_rev",
              __enzyme_autodiff((void *)use, enzyme_out, 3.0), 100, 0);
  check_close("a call of k in forward mode uses k_fwd",
              __enzyme_fwddiff((void *)use, enzyme_dup, 3.0, 1.0), 100, 0);
  check_close("a request for k in reverse mode uses k_rev",
              __enzyme_autodiff((void *)k, enzyme_out, 3.0), 100, 0);
  check_close("a request for k in forward mode uses k_fwd",
              __enzyme_fwddiff((void *)k, enzyme_dup, 3.0, 1.0), 100, 0);
  return check_report();
}
