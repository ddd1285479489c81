// A registered gradient or forward derivative of f also serves a request
// whose function is f itself, as it serves calls of f inside differentiated
// code (Enzyme uses the registration there too): the request differentiates
// a function that calls f. A function with no body in this file but a
// registered derivative can be requested (the -DEXT compile).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O2 -DEXT -c %s -o %t.o
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

#ifdef EXT
double ext(double x);
double ext_aug(double x) { return ext(x); }
double ext_rev(double x, double d) { return 2 * x * d; }
void *__enzyme_register_gradient_ext[3] = {(void *)ext, (void *)ext_aug,
                                           (void *)ext_rev};
double request_ext(double x) {
  return __enzyme_autodiff((void *)ext, enzyme_out, x);
}
#endif

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
