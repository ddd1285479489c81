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
#else
// The spelling that fits: the argument by value.
double mySin(double a) { return a - a * a * a / 6; }
void *__enzyme_function_like[2] = {(void *)mySin, (void *)"sin"};
double use(double a) { return mySin(a) * 2; }
#endif

int main() {
  double d = __enzyme_autodiff((void *)use, enzyme_out, 0.8);
  check_close("registered as like sin", d, 2 * std::cos(0.8), 1e-12);
  return check_report();
}
// RIGHT: ALL PASSED
