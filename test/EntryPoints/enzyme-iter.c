// __enzyme_iter(N, K): the primal sees N, code differentiated d times sees
// N + d*K. Enzyme's example: sin as a Taylor series truncated after
// __enzyme_iter(12, 1) terms keeps its order of accuracy under nested
// __enzyme_autodiff, so its second derivative is minus the same truncated
// series and its third minus the cosine series. (The fourth, as in Enzyme's
// test, is enzyme-iter-fourth.c.) An exp series, whose every
// derivative is the series truncated one term earlier, shows the count
// exactly: each derivative order must equal the primal's polynomial. The
// expected values are the truncated polynomials (and sin, cos, exp)
// evaluated here.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdint.h>

uint64_t __enzyme_iter(uint64_t, uint64_t);
double __enzyme_autodiff(void *, double);
double __enzyme_fwddiff(void *, double, double);

__attribute__((noinline)) uint64_t factorial(uint64_t x) {
  if (x == 0)
    return 1;
  return x * factorial(x - 1);
}

double my_sin2(double x) {
  double result = 0;
  uint64_t N = __enzyme_iter(12, 1);
  for (uint64_t i = 0; i <= N; i++) {
    if (i % 2 == 0)
      continue;
    result += pow(x, i) / factorial(i) * (i % 4 == 1 ? 1 : -1);
  }
  return result;
}

double d_mysin2(double x) { return __enzyme_autodiff((void *)my_sin2, x); }
double dd_mysin2(double x) { return __enzyme_autodiff((void *)d_mysin2, x); }
double ddd_mysin2(double x) {
  return __enzyme_autodiff((void *)dd_mysin2, x);
}

/* sum_{i=0}^{N} x^i / i!, N counting derivative orders from 10. */
double my_exp(double x) {
  double result = 0, term = 1;
  uint64_t N = __enzyme_iter(10, 1);
  for (uint64_t i = 0; i <= N; i++) {
    result += term;
    term = term * x / (double)(i + 1);
  }
  return result;
}

double d_exp(double x) { return __enzyme_fwddiff((void *)my_exp, x, 1.0); }
double dd_exp(double x) { return __enzyme_autodiff((void *)d_exp, x); }
double ddd_exp(double x) { return __enzyme_fwddiff((void *)dd_exp, x, 1.0); }

/* The odd terms of sin's series up to x^n. */
static double sin_poly(double x, int n) {
  double s = 0;
  for (int i = 1; i <= n; i += 2)
    s += (i % 4 == 1 ? 1 : -1) * pow(x, i) / tgamma(i + 1);
  return s;
}
static double cos_poly(double x, int n) {
  double s = 0;
  for (int i = 0; i <= n; i += 2)
    s += (i % 4 == 0 ? 1 : -1) * pow(x, i) / tgamma(i + 1);
  return s;
}
static double exp_poly(double x, int n) {
  double s = 0;
  for (int i = 0; i <= n; ++i)
    s += pow(x, i) / tgamma(i + 1);
  return s;
}

static volatile double in = 1.23;

int main(void) {
  double x = in;
  /* The primal: N = 12, terms up to x^11. */
  check_close("my_sin2", my_sin2(x), sin_poly(x, 11), 1e-13);
  check_close("my_sin2 ~ sin", my_sin2(x), sin(x), 1e-8);
  /* Differentiated once: N = 13, terms up to x^13, derivative up to x^12. */
  check_close("d my_sin2", d_mysin2(x), cos_poly(x, 12), 1e-13);
  check_close("d my_sin2 ~ cos", d_mysin2(x), cos(x), 1e-8);
  /* Twice: N = 14, terms up to x^13, second derivative up to x^11. */
  check_close("dd my_sin2", dd_mysin2(x), -sin_poly(x, 11), 1e-13);
  check_close("dd my_sin2 ~ -sin", dd_mysin2(x), -sin(x), 1e-8);
  /* Three times: N = 15, terms up to x^15, third derivative up to x^12. */
  check_close("ddd my_sin2", ddd_mysin2(x), -cos_poly(x, 12), 1e-12);
  check_close("ddd my_sin2 ~ -cos", ddd_mysin2(x), -cos(x), 1e-8);

  /* Every order is the degree-10 polynomial (one term short would be off
   * by x^10/10!, about 2e-6). */
  check_close("my_exp", my_exp(x), exp_poly(x, 10), 1e-13);
  check_close("d my_exp", d_exp(x), exp_poly(x, 10), 1e-13);
  check_close("dd my_exp", dd_exp(x), exp_poly(x, 10), 1e-13);
  check_close("ddd my_exp", ddd_exp(x), exp_poly(x, 10), 1e-13);
  check_close("ddd my_exp ~ exp", ddd_exp(x), exp(x), 1e-6);
  return check_report();
}
