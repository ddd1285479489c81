// A C user's program that keeps its model in text: the differentiated
// function parses a polynomial "degree c0 c1 ... cn" from a constant
// string with strtol/strtod and their end pointers (the usual C idiom for
// walking a list of numbers), then evaluates it by Horner's rule at an
// active x. The string and the parsed coefficients are constant; the
// derivative with respect to x is the polynomial's derivative
// p'(x) = sum_i i c_i x^(i-1), for two specs.
// Once rejected ("no derivative is known for external function
// 'strtol'", and 'strtod'): the `&end` argument made the calls look
// active. The strto* and ato* functions are now known inactive (a number
// parsed from text has derivative zero). Expected: the analytic p'(x)
// (e.g. 1 - 4x + 0.75x^2 = -3.6325 at x = 1.7 for the first spec).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>

extern int enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);

#define MAXDEG 8

double eval_spec(const char *spec, double x) {
  char *end;
  long deg = strtol(spec, &end, 10);
  if (deg < 0 || deg > MAXDEG)
    return 0.0;
  double c[MAXDEG + 1];
  for (long i = 0; i <= deg; ++i)
    c[i] = strtod(end, &end);
  double r = 0.0;
  for (long i = deg; i >= 0; --i)
    r = r * x + c[i];
  return r;
}

int main(void) {
  const char *specs[2] = {"3  0.0 1.0 -2.0 0.25", "4 1.5 -0.5 0.0 2.0 -1.25"};
  const double coef[2][5] = {{0.0, 1.0, -2.0, 0.25, 0}, {1.5, -0.5, 0.0, 2.0, -1.25}};
  const int deg[2] = {3, 4};
  const double xs[3] = {1.7, -0.4, 0.9};
  for (int s = 0; s < 2; ++s)
    for (int k = 0; k < 3; ++k) {
      double x = xs[k], want = 0.0;
      for (int i = 1; i <= deg[s]; ++i)
        want += i * coef[s][i] * pow(x, i - 1);
      check_close("dp/dx",
                  __enzyme_autodiff((void *)eval_spec, enzyme_const, specs[s],
                                    enzyme_out, x),
                  want, 1e-12);
    }
  return check_report();
}
