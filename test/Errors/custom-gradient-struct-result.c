// A registered gradient (__enzyme_register_gradient_g) of a function that
// returns a struct by value: a registered reverse takes a seed only for a
// floating-point result, so the adjoint of the struct's double member
// would be dropped (a derivative of 0, silently, until Dec 2026, once such
// structs carried derivatives). It is an error at the call when the result
// carries a derivative; the control, where only the struct's int member is
// used, compiles and runs.
// RUN: not %clang -O0 -g -DUSE_DOUBLE %s -lm -o %t 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -DUSE_DOUBLE %s -lm -o %t 2>&1 | FileCheck %s
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s --check-prefix=CONTROL
// CHECK: custom-gradient-struct-result.c:[[@LINE+19]]:{{[0-9]+}}: error: tapestry: cannot differentiate 'f': 'g' has a registered gradient but returns a struct by value, whose adjoint a registered reverse cannot receive; register the gradient of a function that returns its floating-point result as a double, or through a pointer argument
// CONTROL: ALL PASSED
#include "../Integration/Inputs/check.h"
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);

struct DI {
  double d;
  int n;
};
__attribute__((noinline)) struct DI g(double x) {
  return (struct DI){sin(x), 3};
}
void *aug_g(double x) { return 0; }
double rev_g(double x, void *tape) { return 0; }
void *__enzyme_register_gradient_g[3] = {(void *)g, (void *)aug_g,
                                         (void *)rev_g};

double f(double x) {
  struct DI r = g(2 * x);
#ifdef USE_DOUBLE
  return r.d * r.n;
#else
  return x * r.n;
#endif
}

int main(void) {
  double x = 0.4;
  check_close("df/dx", __enzyme_autodiff((void *)f, enzyme_out, x), 3, 1e-15);
  return check_report();
}
