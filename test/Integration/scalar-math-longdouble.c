// A selection of math functions in their long double forms (sinl, ...), in
// reverse and forward mode, against analytic derivatives evaluated in long
// double. The tolerance (1e-17 relative) is below double precision, so a
// derivative computed in double would fail.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// Without errno, clang emits the LLVM intrinsics (llvm.sin, frem, ...):
// RUN: %clang -O0 -fno-math-errno %s -lm -o %t4 && %t4 | FileCheck %s
// RUN: %clang -O2 -fno-math-errno %s -lm -o %t5 && %t5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_out, enzyme_dup, enzyme_const, enzyme_primal_return;
typedef long double LD;
typedef struct {
  LD d0, d1;
} L2;
LD __enzyme_autodiff_l(void *, int, LD);
L2 __enzyme_autodiff_l2(void *, int, LD, int, LD);
LD __enzyme_autodiff_lc(void *, int, LD, int, LD);
LD __enzyme_fwddiff_l(void *, int, LD, LD);
LD __enzyme_fwddiff_l2(void *, int, LD, LD, int, LD, LD);
L2 __enzyme_fwddiff_lp(void *, int, int, LD, LD);
/* Variadic: long double is not promoted. */
LD __enzyme_autodiff(void *, ...);
LD __enzyme_fwddiff(void *, ...);

static LD opaque(LD x) {
  volatile LD v = x;
  return v;
}

#define LTOL 1e-17L

static void check_close_l(const char *what, LD got, LD want) {
  int ok = fabsl(got - want) <= LTOL * (1.0L + fabsl(want));
  if (!ok)
    check_failures++;
  printf("%s %s: got %.21Lg want %.21Lg\n", ok ? "PASS" : "FAIL", what, got,
         want);
}

#define UNARY(NAME, EXPR, DEXPR)                                               \
  LD NAME##_fn(LD x) { return EXPR; }                                          \
  static void NAME##_test(LD x0) {                                             \
    LD x = opaque(x0);                                                         \
    LD want = DEXPR;                                                           \
    char what[96];                                                             \
    snprintf(what, sizeof what, "%s reverse at %Lg", #NAME, x0);               \
    check_close_l(what, __enzyme_autodiff_l((void *)NAME##_fn, enzyme_out, x), \
                  want);                                                       \
    snprintf(what, sizeof what, "%s forward at %Lg", #NAME, x0);               \
    check_close_l(what,                                                        \
                  __enzyme_fwddiff_l((void *)NAME##_fn, enzyme_dup, x, 1.0L),  \
                  want);                                                       \
    snprintf(what, sizeof what, "%s variadic reverse at %Lg", #NAME, x0);      \
    check_close_l(what, __enzyme_autodiff((void *)NAME##_fn, enzyme_out, x),   \
                  want);                                                       \
    snprintf(what, sizeof what, "%s variadic forward at %Lg", #NAME, x0);      \
    check_close_l(what,                                                        \
                  __enzyme_fwddiff((void *)NAME##_fn, enzyme_dup, x, 0.5L),    \
                  0.5L * want);                                                \
  }

#define BINARY(NAME, EXPR, DX, DY)                                             \
  LD NAME##_fn(LD x, LD y) { return EXPR; }                                    \
  static void NAME##_test(LD x0, LD y0) {                                      \
    LD x = opaque(x0), y = opaque(y0);                                         \
    LD wx = DX, wy = DY;                                                       \
    char what[96];                                                             \
    L2 g =                                                                     \
        __enzyme_autodiff_l2((void *)NAME##_fn, enzyme_out, x, enzyme_out, y); \
    snprintf(what, sizeof what, "%s reverse d/dx at (%Lg, %Lg)", #NAME, x0,    \
             y0);                                                              \
    check_close_l(what, g.d0, wx);                                             \
    snprintf(what, sizeof what, "%s reverse d/dy at (%Lg, %Lg)", #NAME, x0,    \
             y0);                                                              \
    check_close_l(what, g.d1, wy);                                             \
    snprintf(what, sizeof what, "%s reverse const y at (%Lg, %Lg)", #NAME, x0, \
             y0);                                                              \
    check_close_l(what,                                                        \
                  __enzyme_autodiff_lc((void *)NAME##_fn, enzyme_out, x,       \
                                       enzyme_const, y),                       \
                  wx);                                                         \
    snprintf(what, sizeof what, "%s forward along (1, -3) at (%Lg, %Lg)",      \
             #NAME, x0, y0);                                                   \
    check_close_l(what,                                                        \
                  __enzyme_fwddiff_l2((void *)NAME##_fn, enzyme_dup, x, 1.0L,  \
                                      enzyme_dup, y, -3.0L),                   \
                  wx - 3.0L * wy);                                             \
  }

// clang-format off
UNARY(sinl, sinl(x), cosl(x))
UNARY(cosl, cosl(x), -sinl(x))
UNARY(tanl, tanl(x), 1.0L / (cosl(x) * cosl(x)))
UNARY(atanl, atanl(x), 1.0L / (1.0L + x * x))
UNARY(tanhl, tanhl(x), 1.0L / (coshl(x) * coshl(x)))
UNARY(expl, expl(x), expl(x))
UNARY(logl, logl(x), 1.0L / x)
UNARY(log1pl, log1pl(x), 1.0L / (1.0L + x))
UNARY(sqrtl, sqrtl(x), 0.5L / sqrtl(x))
UNARY(cbrtl, cbrtl(x), 1.0L / (3.0L * cbrtl(x) * cbrtl(x)))
UNARY(fabsl, fabsl(x), x > 0 ? 1.0L : -1.0L)
UNARY(erfl, erfl(x), 2.0L / sqrtl(3.14159265358979323846264338327950288L) *
                         expl(-x * x))
UNARY(floorl, floorl(x), 0.0L)
BINARY(powl, powl(x, y), y * powl(x, y - 1.0L), powl(x, y) * logl(x))
BINARY(atan2l, atan2l(x, y), y / (x * x + y * y), -x / (x * x + y * y))
BINARY(hypotl, hypotl(x, y), x / sqrtl(x * x + y * y),
       y / sqrtl(x * x + y * y))
BINARY(fmaxl, fmaxl(x, y), x > y ? 1.0L : 0.0L, x > y ? 0.0L : 1.0L)
BINARY(fmodl, fmodl(x, y), 1.0L, -truncl(x / y))
// clang-format on
/* Conversions between long double and double in the middle. */
LD mixed_fn(LD x) { return (LD)sin((double)x) + x * x; }

int main(void) {
  sinl_test(0.3L), sinl_test(-2.1L);
  cosl_test(0.3L), cosl_test(2.8L);
  tanl_test(0.4L), tanl_test(-1.2L);
  atanl_test(0.5L), atanl_test(-3.0L);
  tanhl_test(0.3L), tanhl_test(-1.4L);
  expl_test(0.5L), expl_test(-2.2L);
  logl_test(0.4L), logl_test(7.5L);
  log1pl_test(-0.3L), log1pl_test(2.5L);
  sqrtl_test(0.09L), sqrtl_test(5.0L);
  cbrtl_test(2.0L), cbrtl_test(-0.3L);
  fabsl_test(1.3L), fabsl_test(-0.6L);
  erfl_test(0.4L), erfl_test(-1.3L);
  floorl_test(1.7L), floorl_test(-0.3L);
  powl_test(1.7L, 2.3L), powl_test(0.4L, -1.6L);
  atan2l_test(0.6L, 1.7L), atan2l_test(-1.5L, -0.4L);
  hypotl_test(3.0L, 4.0L), hypotl_test(-0.2L, 1.1L);
  fmaxl_test(0.5L, 1.5L), fmaxl_test(2.5L, -1.0L);
  fmodl_test(7.3L, 2.0L), fmodl_test(-7.3L, 2.5L);

  /* The mixed function goes through double, so it is only double-accurate. */
  LD x = opaque(0.8L);
  check_close("mixed long double/double reverse",
              (double)__enzyme_autodiff_l((void *)mixed_fn, enzyme_out, x),
              cos(0.8) + 1.6, 1e-12);
  check_close("mixed long double/double forward",
              (double)__enzyme_fwddiff_l((void *)mixed_fn, enzyme_dup, x, 1.0L),
              cos(0.8) + 1.6, 1e-12);

  L2 t = __enzyme_fwddiff_lp((void *)expl_fn, enzyme_primal_return, enzyme_dup,
                             x, 2.0L);
  check_close_l("forward primal return expl: f", t.d0, expl(x));
  check_close_l("forward primal return expl: tangent", t.d1, 2.0L * expl(x));
  return check_report();
}
