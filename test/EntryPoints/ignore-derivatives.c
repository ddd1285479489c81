// __enzyme_ignore_derivatives(x) is x with no derivative (Enzyme's
// stop-gradient): reverse and forward mode propagate nothing through it,
// inside callees too, in a nested derivative, through memory and for a
// float (a second declaration, by its asm name); the primal is unchanged.
// Expected
// values are analytic derivatives with the ignored terms held constant.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// A file whose only call is to it links (the call is its argument).
// RUN: %clang -O1 -DONLY_PRIMAL %s -lm -o %t4 && %t4 | FileCheck %s --check-prefix=PRIMAL
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// PRIMAL: primal 1.96
#include "../Integration/Inputs/check.h"

extern int enzyme_out, enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
float __enzyme_autodiff_f(void *, ...) __asm__("__enzyme_autodiff");
double __enzyme_ignore_derivatives(double);
float __enzyme_ignore_derivativesf(float) __asm__("__enzyme_ignore_derivatives_f");

// z = stop(x) + x; z^2: d/dx = 2 z (only the second term counts).
double tester(double x) {
  double y = __enzyme_ignore_derivatives(x);
  double z = y + x;
  return z * z;
}
// A scale factor held constant, computed in a callee.
static double weight(double x) { return __enzyme_ignore_derivatives(exp(x)); }
double scaled(double x) { return sin(x) * weight(x); }
double dscaled(double x) { return __enzyme_autodiff((void *)scaled, x); }
float ftester(float x) { return x * __enzyme_ignore_derivativesf(x * x); }
// Memory: the stopped value stored and read back.
void store(const double *in, double *out) {
  out[0] = __enzyme_ignore_derivatives(in[0] * in[0]) * in[1];
}

int main(void) {
  double x = 0.7;
#ifdef ONLY_PRIMAL
  printf("primal %g\n", tester(x));
  return 0;
#else
  check_close("primal unchanged", tester(x), 4 * x * x, 1e-15);
  check_close("reverse through stop", __enzyme_autodiff((void *)tester, x),
              2 * (2 * x), 1e-12);
  check_close("forward through stop",
              __enzyme_fwddiff((void *)tester, x, 1.0), 2 * (2 * x), 1e-12);
  check_close("callee's constant weight", __enzyme_autodiff((void *)scaled, x),
              cos(x) * exp(x), 1e-12);
  // d/dx [cos(x) e^x] with e^x still held constant inside: -sin(x) e^x.
  check_close("nested: second derivative",
              __enzyme_autodiff((void *)dscaled, x), -sin(x) * exp(x), 1e-12);
  check_close("float", __enzyme_autodiff_f((void *)ftester, 1.5f), 2.25f,
              1e-6);
  double in[2] = {3.0, 2.0}, din[2] = {0, 0}, out[1], dout[1] = {1.0};
  __enzyme_autodiff((void *)store, enzyme_dup, in, din, enzyme_dup, out, dout);
  check_close("memory: d/din0 stopped", din[0], 0.0, 1e-15);
  check_close("memory: d/din1", din[1], 9.0, 1e-12);
  check_close("memory: primal", out[0], 18.0, 1e-12);
  return check_report();
#endif
}
