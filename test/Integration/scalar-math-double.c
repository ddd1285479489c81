// Every math function of the derivative-rules table in its double form, in
// reverse mode (__enzyme_autodiff) and forward mode (__enzyme_fwddiff), at
// several points of its domain, against analytic derivatives.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// Without errno, clang emits the LLVM intrinsics (llvm.sin, frem, ...):
// RUN: %clang -O0 -fno-math-errno %s -lm -o %t4 && %t4 | FileCheck %s
// RUN: %clang -O2 -fno-math-errno %s -lm -o %t5 && %t5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#define _GNU_SOURCE /* exp10, roundeven */
#include "Inputs/check.h"

extern int enzyme_out, enzyme_dup, enzyme_const;
typedef struct {
  double d0, d1;
} D2;
typedef struct {
  double d0, d1, d2;
} D3;
double __enzyme_autodiff(void *, ...);
D2 __enzyme_autodiff_2(void *, ...);
D3 __enzyme_autodiff_3(void *, ...);
double __enzyme_fwddiff(void *, ...);

/* Keeps the optimiser from folding the test points into the derivative. */
static double opaque(double x) {
  volatile double v = x;
  return v;
}

#define TOL 1e-12

/* One active argument: f(x) = EXPR, f'(x) = DEXPR (both in terms of x). */
#define UNARY(NAME, EXPR, DEXPR)                                               \
  double NAME##_fn(double x) { return EXPR; }                                  \
  static void NAME##_test(double x0) {                                         \
    double x = opaque(x0);                                                     \
    double want = DEXPR;                                                       \
    char what[96];                                                             \
    snprintf(what, sizeof what, "%s reverse at %g", #NAME, x0);                \
    check_close(what, __enzyme_autodiff((void *)NAME##_fn, enzyme_out, x),     \
                want, TOL);                                                    \
    snprintf(what, sizeof what, "%s forward at %g", #NAME, x0);                \
    check_close(what, __enzyme_fwddiff((void *)NAME##_fn, enzyme_dup, x, 1.0), \
                want, TOL);                                                    \
    snprintf(what, sizeof what, "%s forward tangent -2.5 at %g", #NAME, x0);   \
    check_close(what,                                                          \
                __enzyme_fwddiff((void *)NAME##_fn, enzyme_dup, x, -2.5),      \
                -2.5 * want, TOL);                                             \
  }

/* Two active arguments: f(x, y) = EXPR, partials DX and DY. */
#define BINARY(NAME, EXPR, DX, DY)                                             \
  double NAME##_fn(double x, double y) { return EXPR; }                        \
  static void NAME##_test(double x0, double y0) {                              \
    double x = opaque(x0), y = opaque(y0);                                     \
    double wx = DX, wy = DY;                                                   \
    char what[96];                                                             \
    D2 g =                                                                     \
        __enzyme_autodiff_2((void *)NAME##_fn, enzyme_out, x, enzyme_out, y);  \
    snprintf(what, sizeof what, "%s reverse d/dx at (%g, %g)", #NAME, x0, y0); \
    check_close(what, g.d0, wx, TOL);                                          \
    snprintf(what, sizeof what, "%s reverse d/dy at (%g, %g)", #NAME, x0, y0); \
    check_close(what, g.d1, wy, TOL);                                          \
    snprintf(what, sizeof what, "%s reverse const y at (%g, %g)", #NAME, x0,   \
             y0);                                                              \
    check_close(                                                               \
        what,                                                                  \
        __enzyme_autodiff((void *)NAME##_fn, enzyme_out, x, enzyme_const, y),  \
        wx, TOL);                                                              \
    snprintf(what, sizeof what, "%s reverse const x at (%g, %g)", #NAME, x0,   \
             y0);                                                              \
    check_close(                                                               \
        what,                                                                  \
        __enzyme_autodiff((void *)NAME##_fn, enzyme_const, x, enzyme_out, y),  \
        wy, TOL);                                                              \
    snprintf(what, sizeof what, "%s forward d/dx at (%g, %g)", #NAME, x0, y0); \
    check_close(what,                                                          \
                __enzyme_fwddiff((void *)NAME##_fn, enzyme_dup, x, 1.0,        \
                                 enzyme_dup, y, 0.0),                          \
                wx, TOL);                                                      \
    snprintf(what, sizeof what, "%s forward d/dy at (%g, %g)", #NAME, x0, y0); \
    check_close(what,                                                          \
                __enzyme_fwddiff((void *)NAME##_fn, enzyme_dup, x, 0.0,        \
                                 enzyme_dup, y, 1.0),                          \
                wy, TOL);                                                      \
    snprintf(what, sizeof what, "%s forward along (0.5, -2) at (%g, %g)",      \
             #NAME, x0, y0);                                                   \
    check_close(what,                                                          \
                __enzyme_fwddiff((void *)NAME##_fn, enzyme_dup, x, 0.5,        \
                                 enzyme_dup, y, -2.0),                         \
                0.5 * wx - 2.0 * wy, TOL);                                     \
    snprintf(what, sizeof what, "%s forward const y at (%g, %g)", #NAME, x0,   \
             y0);                                                              \
    check_close(what,                                                          \
                __enzyme_fwddiff((void *)NAME##_fn, enzyme_dup, x, 1.0,        \
                                 enzyme_const, y),                             \
                wx, TOL);                                                      \
  }

#define LN2 0.69314718055994530942
#define LN10 2.30258509299404568402
#define TWO_OVER_SQRTPI 1.12837916709551257390

// clang-format off
/* Trigonometric. */
UNARY(sin, sin(x), cos(x))
UNARY(cos, cos(x), -sin(x))
UNARY(tan, tan(x), 1.0 / (cos(x) * cos(x)))
UNARY(asin, asin(x), 1.0 / sqrt(1.0 - x * x))
UNARY(acos, acos(x), -1.0 / sqrt(1.0 - x * x))
UNARY(atan, atan(x), 1.0 / (1.0 + x * x))
BINARY(atan2, atan2(x, y), y / (x * x + y * y), -x / (x * x + y * y))
/* Hyperbolic. */
UNARY(sinh, sinh(x), cosh(x))
UNARY(cosh, cosh(x), sinh(x))
UNARY(tanh, tanh(x), 1.0 / (cosh(x) * cosh(x)))
UNARY(asinh, asinh(x), 1.0 / sqrt(x * x + 1.0))
UNARY(acosh, acosh(x), 1.0 / sqrt(x * x - 1.0))
UNARY(atanh, atanh(x), 1.0 / (1.0 - x * x))
/* Exponentials and logarithms. */
UNARY(exp, exp(x), exp(x))
UNARY(exp2, exp2(x), LN2 * exp2(x))
UNARY(exp10, exp10(x), LN10 * exp10(x))
UNARY(expm1, expm1(x), exp(x))
UNARY(log, log(x), 1.0 / x)
UNARY(log2, log2(x), 1.0 / (x * LN2))
UNARY(log10, log10(x), 1.0 / (x * LN10))
UNARY(log1p, log1p(x), 1.0 / (1.0 + x))
/* Powers and roots. */
BINARY(pow, pow(x, y), y * pow(x, y - 1.0), pow(x, y) * log(x))
UNARY(sqrt, sqrt(x), 0.5 / sqrt(x))
UNARY(cbrt, cbrt(x), 1.0 / (3.0 * cbrt(x) * cbrt(x)))
BINARY(hypot, hypot(x, y), x / sqrt(x * x + y * y), y / sqrt(x * x + y * y))
/* Sign, magnitude, selection. */
UNARY(fabs, fabs(x), x > 0 ? 1.0 : -1.0)
BINARY(copysign, copysign(x, y), (x > 0) == (y > 0) ? 1.0 : -1.0, 0.0)
BINARY(fmin, fmin(x, y), x < y ? 1.0 : 0.0, x < y ? 0.0 : 1.0)
BINARY(fmax, fmax(x, y), x > y ? 1.0 : 0.0, x > y ? 0.0 : 1.0)
BINARY(fmod, fmod(x, y), 1.0, -trunc(x / y))
/* Special functions. */
UNARY(erf, erf(x), TWO_OVER_SQRTPI * exp(-x * x))
UNARY(erfc, erfc(x), -TWO_OVER_SQRTPI * exp(-x * x))
/* Piecewise constant: zero derivative away from the jumps. */
UNARY(floor, floor(x), 0.0)
UNARY(ceil, ceil(x), 0.0)
UNARY(round, round(x), 0.0)
UNARY(trunc, trunc(x), 0.0)
UNARY(roundeven, roundeven(x), 0.0)
UNARY(rint, rint(x), 0.0)
UNARY(nearbyint, nearbyint(x), 0.0)
/* Composite: a chain of table entries, f' by the chain rule. */
UNARY(chain, exp(sin(x)) * log1p(x * x),
      cos(x) * exp(sin(x)) * log1p(x * x) +
          exp(sin(x)) * 2.0 * x / (1.0 + x * x))
// clang-format on

/* fma: three active arguments, struct returned through memory (sret). */
double fma_fn(double x, double y, double z) { return fma(x, y, z); }
static void fma_test(double x0, double y0, double z0) {
  double x = opaque(x0), y = opaque(y0), z = opaque(z0);
  D3 g = __enzyme_autodiff_3((void *)fma_fn, enzyme_out, x, enzyme_out, y,
                             enzyme_out, z);
  check_close("fma reverse d/dx", g.d0, y, TOL);
  check_close("fma reverse d/dy", g.d1, x, TOL);
  check_close("fma reverse d/dz", g.d2, 1.0, TOL);
  check_close("fma forward d/dx",
              __enzyme_fwddiff((void *)fma_fn, enzyme_dup, x, 1.0, enzyme_dup,
                               y, 0.0, enzyme_dup, z, 0.0),
              y, TOL);
  check_close("fma forward along (1, 2, 3)",
              __enzyme_fwddiff((void *)fma_fn, enzyme_dup, x, 1.0, enzyme_dup,
                               y, 2.0, enzyme_dup, z, 3.0),
              y + 2.0 * x + 3.0, TOL);
}

/* ldexp(x, n) = x * 2^n: the integer exponent is constant. */
double ldexp_fn(double x, int n) { return ldexp(x, n); }
static void ldexp_test(double x0, int n) {
  double x = opaque(x0);
  double want = ldexp(1.0, n);
  char what[96];
  snprintf(what, sizeof what, "ldexp reverse n=%d", n);
  check_close(
      what, __enzyme_autodiff((void *)ldexp_fn, enzyme_out, x, enzyme_const, n),
      want, TOL);
  snprintf(what, sizeof what, "ldexp reverse n=%d default int activity", n);
  check_close(what, __enzyme_autodiff((void *)ldexp_fn, x, n), want, TOL);
  snprintf(what, sizeof what, "ldexp forward n=%d", n);
  check_close(
      what,
      __enzyme_fwddiff((void *)ldexp_fn, enzyme_dup, x, 1.0, enzyme_const, n),
      want, TOL);
}

/* __builtin_powi(x, n): n * x^(n-1). */
double powi_fn(double x, int n) { return __builtin_powi(x, n); }
static void powi_test(double x0, int n) {
  double x = opaque(x0);
  double want = n * pow(x, n - 1);
  char what[96];
  snprintf(what, sizeof what, "powi reverse x=%g n=%d", x0, n);
  check_close(
      what, __enzyme_autodiff((void *)powi_fn, enzyme_out, x, enzyme_const, n),
      want, TOL);
  snprintf(what, sizeof what, "powi forward x=%g n=%d", x0, n);
  check_close(
      what,
      __enzyme_fwddiff((void *)powi_fn, enzyme_dup, x, 1.0, enzyme_const, n),
      want, TOL);
}

/* pow at special points: the analytic derivatives are finite there.
 * d/dx x^y = y x^(y-1) (also for x < 0 with y an integer), d/dy 0^y = 0 for
 * y > 0. */
static void pow_special(void) {
  double zero = opaque(0.0), two = opaque(2.0), one = opaque(1.0),
         m2 = opaque(-2.0), three = opaque(3.0);
  D2 g = __enzyme_autodiff_2((void *)pow_fn, enzyme_out, zero, enzyme_out, two);
  check_close("pow(0, 2) reverse d/dx", g.d0, 0.0, TOL);
  check_close("pow(0, 2) reverse d/dy", g.d1, 0.0, TOL);
  check_close("pow(0, 2) forward along (1, 1)",
              __enzyme_fwddiff((void *)pow_fn, enzyme_dup, zero, 1.0,
                               enzyme_dup, two, 1.0),
              0.0, TOL);
  check_close(
      "pow(0, 1) reverse d/dx",
      __enzyme_autodiff((void *)pow_fn, enzyme_out, zero, enzyme_const, one),
      1.0, TOL);
  check_close(
      "pow(-2, 3) reverse d/dx, const y",
      __enzyme_autodiff((void *)pow_fn, enzyme_out, m2, enzyme_const, three),
      12.0, TOL);
  check_close("pow(-2, 3) forward d/dx, const y",
              __enzyme_fwddiff((void *)pow_fn, enzyme_dup, m2, 1.0,
                               enzyme_const, three),
              12.0, TOL);
}

int main(void) {
  sin_test(0.3), sin_test(-2.1);
  cos_test(0.3), cos_test(2.8);
  tan_test(0.4), tan_test(-1.2);
  asin_test(0.25), asin_test(-0.8);
  acos_test(0.25), acos_test(-0.8);
  atan_test(0.5), atan_test(-3.0);
  atan2_test(0.6, 1.7), atan2_test(-1.5, -0.4);
  sinh_test(0.7), sinh_test(-1.9);
  cosh_test(0.7), cosh_test(-1.9);
  tanh_test(0.3), tanh_test(-1.4);
  asinh_test(0.6), asinh_test(-2.5);
  acosh_test(1.5), acosh_test(4.0);
  atanh_test(0.3), atanh_test(-0.9);
  exp_test(0.5), exp_test(-2.2);
  exp2_test(0.5), exp2_test(-3.3);
  exp10_test(0.5), exp10_test(-1.3);
  expm1_test(1e-3), expm1_test(-1.7);
  log_test(0.4), log_test(7.5);
  log2_test(0.4), log2_test(7.5);
  log10_test(0.4), log10_test(7.5);
  log1p_test(-0.3), log1p_test(2.5);
  pow_test(1.7, 2.3), pow_test(0.4, -1.6), pow_test(2.5, 3.0);
  sqrt_test(0.09), sqrt_test(5.0);
  cbrt_test(2.0), cbrt_test(-0.3);
  hypot_test(3.0, 4.0), hypot_test(-0.2, 1.1);
  fabs_test(1.3), fabs_test(-0.6);
  copysign_test(1.5, 2.0), copysign_test(1.5, -2.0), copysign_test(-1.5, -0.1),
      copysign_test(-1.5, 3.0);
  fmin_test(0.5, 1.5), fmin_test(2.5, -1.0);
  fmax_test(0.5, 1.5), fmax_test(2.5, -1.0);
  fmod_test(7.3, 2.0), fmod_test(-7.3, 2.5), fmod_test(1.25, 3.0);
  erf_test(0.4), erf_test(-1.3);
  erfc_test(0.4), erfc_test(-1.3);
  floor_test(1.7), floor_test(-0.3);
  ceil_test(1.7), ceil_test(-0.3);
  round_test(1.7), round_test(-0.3);
  trunc_test(1.7), trunc_test(-0.3);
  roundeven_test(2.5), roundeven_test(-0.3);
  rint_test(1.7), rint_test(-0.3);
  nearbyint_test(1.7), nearbyint_test(-0.3);
  chain_test(0.45), chain_test(-1.1);
  fma_test(1.5, -2.0, 0.25), fma_test(-0.3, 0.7, 4.0);
  ldexp_test(1.3, 3), ldexp_test(-0.7, -2);
  powi_test(1.3, 3), powi_test(0.8, -2), powi_test(2.0, 1), powi_test(2.0, 0);
  pow_special();
  return check_report();
}
