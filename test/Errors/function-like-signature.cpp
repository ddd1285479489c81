// A function registered as like a math function whose parameters are not
// that function's: taking one value where pow takes two reached users as
// "internal error: the synthesised reverse derivative of 'sq' is invalid
// IR", and taking its argument by reference (const double &, a pointer
// in IR) where sin takes a value gave a derivative of 0 without a word
// (review23b F1, F2). Both are now an error at the registration saying
// what fits.
// RUN: not %clangxx -O2 -g -c %s -o /dev/null -DARITY 2>&1 | FileCheck %s --check-prefix=ARITY
// RUN: not %clangxx -O2 -g -c %s -o /dev/null -DREF 2>&1 | FileCheck %s --check-prefix=REF
// RUN: %clangxx -O2 %s -o %t && %t | FileCheck %s --check-prefix=RIGHT
// A function registered as like a function Tapestry has no rule for was
// told it "has a registered forward derivative but no gradient"; one like
// sincos (review23b F5) is now sincos: s = sin a, c = cos a.
// RUN: not %clangxx -O2 -g -c %s -o /dev/null -DUNKNOWN 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: %clangxx -O0 %s -o %ts0 -DSINCOS && %ts0 | FileCheck %s --check-prefix=RIGHT
// RUN: %clangxx -O2 %s -o %ts2 -DSINCOS && %ts2 | FileCheck %s --check-prefix=RIGHT
// UNKNOWN-NOT: forward derivative but no gradient
// CHECK-NOT: internal error
#include "../Integration/Inputs/check.h"
#include <cmath>

extern "C" {
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
}

#if defined(ARITY)
double sq(double a) { return a * a; }
// ARITY: function-like-signature.cpp:[[@LINE+1]]:{{.*}}error: tapestry: in '__enzyme_function_like': 'sq(double)' is registered as like 'pow', but its parameters are not pow's (2 values of its return type, taken by value), so pow's derivative cannot be applied to its calls; register a function with pow's signature (a wrapper taking its arguments by value), or register a derivative for 'sq(double)' (__enzyme_register_gradient)
void *__enzyme_function_like[2] = {(void *)sq, (void *)"pow"};
double use(double a) { return sq(a) + 1; }
#elif defined(REF)
double mySin(const double &a) { return a - a * a * a / 6; }
// REF: function-like-signature.cpp:[[@LINE+1]]:{{.*}}error: tapestry: in '__enzyme_function_like': 'mySin(double const&)' is registered as like 'sin', but its parameters are not sin's (1 value of its return type, taken by value)
void *__enzyme_function_like[2] = {(void *)mySin, (void *)"sin"};
double use(double a) { return mySin(a) * 2; }
#elif defined(UNKNOWN)
double halfLife(double a) { return a * 0.5; }
void *__enzyme_function_like[2] = {(void *)halfLife, (void *)"decay"};
// UNKNOWN: function-like-signature.cpp:[[@LINE+1]]:{{.*}}error: tapestry: cannot differentiate 'use(double)': 'halfLife(double)' is registered as like 'decay' (__enzyme_function_like), a function Tapestry has no derivative rule for; name a math function it computes, or register its derivative (__enzyme_register_gradient_
double use(double a) { return halfLife(a) * 2; }
#elif defined(SINCOS)
void mySincos(double a, double *s, double *c) {
  *s = a;
  *c = 1;
}
void *__enzyme_function_like[2] = {(void *)mySincos, (void *)"sincos"};
double use(double a) {
  double s, c;
  mySincos(a, &s, &c);
  return s * s + 3 * c;
}
#else
// The spelling that fits: the argument by value.
double mySin(double a) { return a - a * a * a / 6; }
void *__enzyme_function_like[2] = {(void *)mySin, (void *)"sin"};
double use(double a) { return mySin(a) * 2; }
#endif

int main() {
  double d = __enzyme_autodiff((void *)use, enzyme_out, 0.8);
#if defined(SINCOS)
  // d/da (sin^2 a + 3 cos a) = 2 sin a cos a - 3 sin a.
  check_close("registered as like sincos", d,
              2 * std::sin(0.8) * std::cos(0.8) - 3 * std::sin(0.8), 1e-12);
#else
  check_close("registered as like sin", d, 2 * std::cos(0.8), 1e-12);
#endif
  return check_report();
}
// RIGHT: ALL PASSED
