// Every math function of the derivative-rules table in its float form
// (sinf, ...), through typed entry-point prototypes so that no argument is
// promoted to double, in reverse and forward mode, against analytic
// derivatives (evaluated in double at the float point). The last part passes
// a float function's argument through the variadic prototype, where C
// promotes it to double and the plugin converts it back.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// Without errno, clang emits the LLVM intrinsics (llvm.sin, frem, ...):
// RUN: %clang -O0 -fno-math-errno %s -lm -o %t4 && %t4 | FileCheck %s
// RUN: %clang -O2 -fno-math-errno %s -lm -o %t5 && %t5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#define _GNU_SOURCE /* exp10f, roundevenf */
#include "Inputs/check.h"

extern int enzyme_out, enzyme_dup, enzyme_const;
typedef struct {
  float d0, d1;
} F2;
typedef struct {
  float d0, d1, d2; /* { <2 x float>, float } in the x86-64 C ABI */
} F3;
/* Typed prototypes: markers are ints, values are floats. */
float __enzyme_autodiff_f(void *, int, float);
F2 __enzyme_autodiff_f2(void *, int, float, int, float);
F2 __enzyme_autodiff_ffc(void *, int, float, int, float, int, float);
float __enzyme_autodiff_ccf(void *, int, float, int, float, int, float);
F3 __enzyme_autodiff_f3(void *, int, float, int, float, int, float);
float __enzyme_autodiff_fc(void *, int, float, int, float);
float __enzyme_autodiff_cf(void *, int, float, int, float);
float __enzyme_autodiff_fi(void *, int, float, int, int);
float __enzyme_fwddiff_f(void *, int, float, float);
float __enzyme_fwddiff_f2(void *, int, float, float, int, float, float);
float __enzyme_fwddiff_fc(void *, int, float, float, int, float);
float __enzyme_fwddiff_f3(void *, int, float, float, int, float, float, int,
                          float, float);
float __enzyme_fwddiff_fi(void *, int, float, float, int, int);
/* Typed without markers (default activity), and typed with double where the
 * function takes float (the plugin converts). */
float __enzyme_autodiff_fdef(void *, float);
float __enzyme_fwddiff_fdef(void *, float, float);
double __enzyme_autodiff_fasd(void *, int, double);
double __enzyme_fwddiff_fasd(void *, int, double, double);
/* Variadic prototypes: float arguments are promoted to double. */
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
F2 __enzyme_autodiff_vf2(void *, ...);

static float opaque(float x) {
  volatile float v = x;
  return v;
}

#define TOL 1e-5

#define UNARY(NAME, EXPR, DEXPR)                                               \
  float NAME##_fn(float x) { return EXPR; }                                    \
  static void NAME##_test(float x0) {                                          \
    float x = opaque(x0);                                                      \
    double want;                                                               \
    {                                                                          \
      double x = x0;                                                           \
      want = DEXPR;                                                            \
    }                                                                          \
    char what[96];                                                             \
    snprintf(what, sizeof what, "%s reverse at %g", #NAME, x0);                \
    check_close(what, __enzyme_autodiff_f((void *)NAME##_fn, enzyme_out, x),   \
                want, TOL);                                                    \
    snprintf(what, sizeof what, "%s forward at %g", #NAME, x0);                \
    check_close(what,                                                          \
                __enzyme_fwddiff_f((void *)NAME##_fn, enzyme_dup, x, 1.0f),    \
                want, TOL);                                                    \
    snprintf(what, sizeof what, "%s forward tangent -2.5 at %g", #NAME, x0);   \
    check_close(what,                                                          \
                __enzyme_fwddiff_f((void *)NAME##_fn, enzyme_dup, x, -2.5f),   \
                -2.5 * want, TOL);                                             \
  }

#define BINARY(NAME, EXPR, DX, DY)                                             \
  float NAME##_fn(float x, float y) { return EXPR; }                           \
  static void NAME##_test(float x0, float y0) {                                \
    float x = opaque(x0), y = opaque(y0);                                      \
    double wx, wy;                                                             \
    {                                                                          \
      double x = x0, y = y0;                                                   \
      wx = DX;                                                                 \
      wy = DY;                                                                 \
    }                                                                          \
    char what[96];                                                             \
    F2 g =                                                                     \
        __enzyme_autodiff_f2((void *)NAME##_fn, enzyme_out, x, enzyme_out, y); \
    snprintf(what, sizeof what, "%s reverse d/dx at (%g, %g)", #NAME, x0, y0); \
    check_close(what, g.d0, wx, TOL);                                          \
    snprintf(what, sizeof what, "%s reverse d/dy at (%g, %g)", #NAME, x0, y0); \
    check_close(what, g.d1, wy, TOL);                                          \
    snprintf(what, sizeof what, "%s reverse const y at (%g, %g)", #NAME, x0,   \
             y0);                                                              \
    check_close(what,                                                          \
                __enzyme_autodiff_fc((void *)NAME##_fn, enzyme_out, x,         \
                                     enzyme_const, y),                         \
                wx, TOL);                                                      \
    snprintf(what, sizeof what, "%s reverse const x at (%g, %g)", #NAME, x0,   \
             y0);                                                              \
    check_close(what,                                                          \
                __enzyme_autodiff_cf((void *)NAME##_fn, enzyme_const, x,       \
                                     enzyme_out, y),                           \
                wy, TOL);                                                      \
    snprintf(what, sizeof what, "%s forward d/dx at (%g, %g)", #NAME, x0, y0); \
    check_close(what,                                                          \
                __enzyme_fwddiff_f2((void *)NAME##_fn, enzyme_dup, x, 1.0f,    \
                                    enzyme_dup, y, 0.0f),                      \
                wx, TOL);                                                      \
    snprintf(what, sizeof what, "%s forward d/dy at (%g, %g)", #NAME, x0, y0); \
    check_close(what,                                                          \
                __enzyme_fwddiff_f2((void *)NAME##_fn, enzyme_dup, x, 0.0f,    \
                                    enzyme_dup, y, 1.0f),                      \
                wy, TOL);                                                      \
    snprintf(what, sizeof what, "%s forward const y at (%g, %g)", #NAME, x0,   \
             y0);                                                              \
    check_close(what,                                                          \
                __enzyme_fwddiff_fc((void *)NAME##_fn, enzyme_dup, x, 1.0f,    \
                                    enzyme_const, y),                          \
                wx, TOL);                                                      \
  }

#define LN2 0.69314718055994530942
#define LN10 2.30258509299404568402
#define TWO_OVER_SQRTPI 1.12837916709551257390

// clang-format off
UNARY(sinf, sinf(x), cos(x))
UNARY(cosf, cosf(x), -sin(x))
UNARY(tanf, tanf(x), 1.0 / (cos(x) * cos(x)))
UNARY(asinf, asinf(x), 1.0 / sqrt(1.0 - x * x))
UNARY(acosf, acosf(x), -1.0 / sqrt(1.0 - x * x))
UNARY(atanf, atanf(x), 1.0 / (1.0 + x * x))
BINARY(atan2f, atan2f(x, y), y / (x * x + y * y), -x / (x * x + y * y))
UNARY(sinhf, sinhf(x), cosh(x))
UNARY(coshf, coshf(x), sinh(x))
UNARY(tanhf, tanhf(x), 1.0 / (cosh(x) * cosh(x)))
UNARY(asinhf, asinhf(x), 1.0 / sqrt(x * x + 1.0))
UNARY(acoshf, acoshf(x), 1.0 / sqrt(x * x - 1.0))
UNARY(atanhf, atanhf(x), 1.0 / (1.0 - x * x))
UNARY(expf, expf(x), exp(x))
UNARY(exp2f, exp2f(x), LN2 * exp2(x))
UNARY(exp10f, exp10f(x), LN10 * exp10(x))
UNARY(expm1f, expm1f(x), exp(x))
UNARY(logf, logf(x), 1.0 / x)
UNARY(log2f, log2f(x), 1.0 / (x * LN2))
UNARY(log10f, log10f(x), 1.0 / (x * LN10))
UNARY(log1pf, log1pf(x), 1.0 / (1.0 + x))
BINARY(powf, powf(x, y), y * pow(x, y - 1.0), pow(x, y) * log(x))
UNARY(sqrtf, sqrtf(x), 0.5 / sqrt(x))
UNARY(cbrtf, cbrtf(x), 1.0 / (3.0 * cbrt(x) * cbrt(x)))
BINARY(hypotf, hypotf(x, y), x / sqrt(x * x + y * y), y / sqrt(x * x + y * y))
UNARY(fabsf, fabsf(x), x > 0 ? 1.0 : -1.0)
BINARY(copysignf, copysignf(x, y), (x > 0) == (y > 0) ? 1.0 : -1.0, 0.0)
BINARY(fminf, fminf(x, y), x < y ? 1.0 : 0.0, x < y ? 0.0 : 1.0)
BINARY(fmaxf, fmaxf(x, y), x > y ? 1.0 : 0.0, x > y ? 0.0 : 1.0)
BINARY(fmodf, fmodf(x, y), 1.0, -trunc(x / y))
UNARY(erff, erff(x), TWO_OVER_SQRTPI * exp(-x * x))
UNARY(erfcf, erfcf(x), -TWO_OVER_SQRTPI * exp(-x * x))
UNARY(floorf, floorf(x), 0.0)
UNARY(ceilf, ceilf(x), 0.0)
UNARY(roundf, roundf(x), 0.0)
UNARY(truncf, truncf(x), 0.0)
UNARY(roundevenf, roundevenf(x), 0.0)
UNARY(rintf, rintf(x), 0.0)
UNARY(nearbyintf, nearbyintf(x), 0.0)
UNARY(chainf, expf(sinf(x)) * log1pf(x * x),
      cos(x) * exp(sin(x)) * log1p(x * x) +
          exp(sin(x)) * 2.0 * x / (1.0 + x * x))
// clang-format on

/* fmaf: two active and one constant, one active, and three active (the
 * adjoints come back as {float, float, float}). */
float fmaf_fn(float x, float y, float z) { return fmaf(x, y, z); }
static void fmaf_test(float x0, float y0, float z0) {
  float x = opaque(x0), y = opaque(y0), z = opaque(z0);
  F2 g = __enzyme_autodiff_ffc((void *)fmaf_fn, enzyme_out, x, enzyme_out, y,
                               enzyme_const, z);
  check_close("fmaf reverse d/dx", g.d0, y0, TOL);
  check_close("fmaf reverse d/dy", g.d1, x0, TOL);
  check_close("fmaf reverse d/dz",
              __enzyme_autodiff_ccf((void *)fmaf_fn, enzyme_const, x,
                                    enzyme_const, y, enzyme_out, z),
              1.0, TOL);
  F3 h = __enzyme_autodiff_f3((void *)fmaf_fn, enzyme_out, x, enzyme_out, y,
                              enzyme_out, z);
  check_close("fmaf reverse 3 active: d/dx", h.d0, y0, TOL);
  check_close("fmaf reverse 3 active: d/dy", h.d1, x0, TOL);
  check_close("fmaf reverse 3 active: d/dz", h.d2, 1.0, TOL);
  check_close("fmaf forward along (1, 2, 3)",
              __enzyme_fwddiff_f3((void *)fmaf_fn, enzyme_dup, x, 1.0f,
                                  enzyme_dup, y, 2.0f, enzyme_dup, z, 3.0f),
              (double)y0 + 2.0 * x0 + 3.0, TOL);
}

float ldexpf_fn(float x, int n) { return ldexpf(x, n); }
static void ldexpf_test(float x0, int n) {
  float x = opaque(x0);
  double want = ldexp(1.0, n);
  char what[96];
  snprintf(what, sizeof what, "ldexpf reverse n=%d", n);
  check_close(
      what,
      __enzyme_autodiff_fi((void *)ldexpf_fn, enzyme_out, x, enzyme_const, n),
      want, TOL);
  snprintf(what, sizeof what, "ldexpf forward n=%d", n);
  check_close(what,
              __enzyme_fwddiff_fi((void *)ldexpf_fn, enzyme_dup, x, 1.0f,
                                  enzyme_const, n),
              want, TOL);
}

float powif_fn(float x, int n) { return __builtin_powif(x, n); }
static void powif_test(float x0, int n) {
  float x = opaque(x0);
  double want = n * pow(x0, n - 1);
  char what[96];
  snprintf(what, sizeof what, "powif reverse x=%g n=%d", x0, n);
  check_close(
      what,
      __enzyme_autodiff_fi((void *)powif_fn, enzyme_out, x, enzyme_const, n),
      want, TOL);
  snprintf(what, sizeof what, "powif forward x=%g n=%d", x0, n);
  check_close(what,
              __enzyme_fwddiff_fi((void *)powif_fn, enzyme_dup, x, 1.0f,
                                  enzyme_const, n),
              want, TOL);
}

/* Variadic prototype with float functions: each float argument is promoted
 * to double by the call, the result is read back as double. */
static void promotion_test(void) {
  float x = opaque(0.6f), y = opaque(1.4f);
  double xd = 0.6f, yd = 1.4f;
  check_close("variadic reverse sinf, promoted x",
              __enzyme_autodiff((void *)sinf_fn, enzyme_out, x), cos(xd), TOL);
  check_close("variadic reverse sinf, promoted x, default activity",
              __enzyme_autodiff((void *)sinf_fn, x), cos(xd), TOL);
  check_close("variadic reverse expf, double literal",
              __enzyme_autodiff((void *)expf_fn, enzyme_out, 0.6), exp(xd),
              TOL);
  check_close("variadic forward sinf, promoted x and tangent",
              __enzyme_fwddiff((void *)sinf_fn, enzyme_dup, x, 1.0), cos(xd),
              TOL);
  check_close("variadic forward sinf, default activity",
              __enzyme_fwddiff((void *)sinf_fn, x, 2.0), 2.0 * cos(xd), TOL);
  check_close("typed, default activity, reverse sinf",
              __enzyme_autodiff_fdef((void *)sinf_fn, x), cos(xd), TOL);
  check_close("typed, default activity, forward sinf",
              __enzyme_fwddiff_fdef((void *)sinf_fn, x, 1.0f), cos(xd), TOL);
  check_close("typed double prototype, float function, reverse",
              __enzyme_autodiff_fasd((void *)expf_fn, enzyme_out, xd), exp(xd),
              TOL);
  check_close("typed double prototype, float function, forward",
              __enzyme_fwddiff_fasd((void *)expf_fn, enzyme_dup, xd, 1.0),
              exp(xd), TOL);
  /* Promoted arguments, adjoints returned as the float struct they are. */
  F2 g = __enzyme_autodiff_vf2((void *)powf_fn, enzyme_out, x, enzyme_out, y);
  check_close("variadic reverse powf d/dx", g.d0, yd * pow(xd, yd - 1.0), TOL);
  check_close("variadic reverse powf d/dy", g.d1, pow(xd, yd) * log(xd), TOL);
  check_close(
      "variadic reverse powf, const y",
      __enzyme_autodiff((void *)powf_fn, enzyme_out, x, enzyme_const, y),
      yd * pow(xd, yd - 1.0), TOL);
  check_close("variadic forward atan2f",
              __enzyme_fwddiff((void *)atan2f_fn, enzyme_dup, x, 1.0,
                               enzyme_dup, y, 0.5),
              (yd - 0.5 * xd) / (xd * xd + yd * yd), TOL);
  check_close(
      "variadic reverse ldexpf, int const",
      __enzyme_autodiff((void *)ldexpf_fn, enzyme_out, x, enzyme_const, 3), 8.0,
      TOL);
}

int main(void) {
  sinf_test(0.3f), sinf_test(-2.1f);
  cosf_test(0.3f), cosf_test(2.8f);
  tanf_test(0.4f), tanf_test(-1.2f);
  asinf_test(0.25f), asinf_test(-0.8f);
  acosf_test(0.25f), acosf_test(-0.8f);
  atanf_test(0.5f), atanf_test(-3.0f);
  atan2f_test(0.6f, 1.7f), atan2f_test(-1.5f, -0.4f);
  sinhf_test(0.7f), sinhf_test(-1.9f);
  coshf_test(0.7f), coshf_test(-1.9f);
  tanhf_test(0.3f), tanhf_test(-1.4f);
  asinhf_test(0.6f), asinhf_test(-2.5f);
  acoshf_test(1.5f), acoshf_test(4.0f);
  atanhf_test(0.3f), atanhf_test(-0.9f);
  expf_test(0.5f), expf_test(-2.2f);
  exp2f_test(0.5f), exp2f_test(-3.3f);
  exp10f_test(0.5f), exp10f_test(-1.3f);
  expm1f_test(1e-3f), expm1f_test(-1.7f);
  logf_test(0.4f), logf_test(7.5f);
  log2f_test(0.4f), log2f_test(7.5f);
  log10f_test(0.4f), log10f_test(7.5f);
  log1pf_test(-0.3f), log1pf_test(2.5f);
  powf_test(1.7f, 2.3f), powf_test(0.4f, -1.6f), powf_test(2.5f, 3.0f);
  sqrtf_test(0.09f), sqrtf_test(5.0f);
  cbrtf_test(2.0f), cbrtf_test(-0.3f);
  hypotf_test(3.0f, 4.0f), hypotf_test(-0.2f, 1.1f);
  fabsf_test(1.3f), fabsf_test(-0.6f);
  copysignf_test(1.5f, 2.0f), copysignf_test(1.5f, -2.0f),
      copysignf_test(-1.5f, -0.1f), copysignf_test(-1.5f, 3.0f);
  fminf_test(0.5f, 1.5f), fminf_test(2.5f, -1.0f);
  fmaxf_test(0.5f, 1.5f), fmaxf_test(2.5f, -1.0f);
  fmodf_test(7.3f, 2.0f), fmodf_test(-7.3f, 2.5f), fmodf_test(1.25f, 3.0f);
  erff_test(0.4f), erff_test(-1.3f);
  erfcf_test(0.4f), erfcf_test(-1.3f);
  floorf_test(1.7f), floorf_test(-0.3f);
  ceilf_test(1.7f), ceilf_test(-0.3f);
  roundf_test(1.7f), roundf_test(-0.3f);
  truncf_test(1.7f), truncf_test(-0.3f);
  roundevenf_test(2.5f), roundevenf_test(-0.3f);
  rintf_test(1.7f), rintf_test(-0.3f);
  nearbyintf_test(1.7f), nearbyintf_test(-0.3f);
  chainf_test(0.45f), chainf_test(-1.1f);
  fmaf_test(1.5f, -2.0f, 0.25f), fmaf_test(-0.3f, 0.7f, 4.0f);
  ldexpf_test(1.3f, 3), ldexpf_test(-0.7f, -2);
  powif_test(1.3f, 3), powif_test(0.8f, -2), powif_test(2.0f, 1);
  promotion_test();
  return check_report();
}
