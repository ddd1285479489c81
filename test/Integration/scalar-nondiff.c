// Enzyme's conventions at non-differentiable points, in reverse and forward
// mode, for double and float: fabs'(x) = copysign(1, x), the one-sided
// derivative on the side of the zero's sign; sqrt'(0) = 0, so sqrt(x*x) has
// derivative 0 at 0 (not 0 * inf = NaN); fmax/fmin pass the derivative of the
// operand they chose, on both sides of the switch.
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

extern int enzyme_out, enzyme_dup, enzyme_const;
typedef struct {
  double d0, d1;
} D2;
double __enzyme_autodiff(void *, ...);
D2 __enzyme_autodiff_2(void *, ...);
double __enzyme_fwddiff(void *, ...);
float __enzyme_autodiff_f(void *, int, float);
float __enzyme_fwddiff_f(void *, int, float, float);

static double opaque(double x) {
  volatile double v = x;
  return v;
}

#define TOL 1e-12

double abs_fn(double x) { return fabs(x); }
double abs3_fn(double x) { return 3.0 * fabs(x) + x; }
double sqrt_fn(double x) { return sqrt(x); }
double sqrtsq_fn(double x) { return sqrt(x * x); }
double norm_fn(double x, double y) { return sqrt(x * x + y * y); }
double relu_fn(double x) { return fmax(x, 0.0); }
double clamp_fn(double x) { return fmin(fmax(x, -1.0), 1.0); }
double max_fn(double x, double y) { return fmax(x, y); }
double min_fn(double x, double y) { return fmin(x, y); }
/* Same variable on both sides: max(x, x^2) chooses x on (0, 1). */
double maxsq_fn(double x) { return fmax(x, x * x); }
double minsq_fn(double x) { return fmin(x, x * x); }
float absf_fn(float x) { return fabsf(x); }
float sqrtsqf_fn(float x) { return sqrtf(x * x); }
float maxf_fn(float x) { return fmaxf(x, 2.0f * x - 1.0f); }

/* The function must be known at compile time (as in Enzyme), so the
 * helpers are macros rather than functions taking a pointer. */
static char buf[128];
#define LABEL(...) (snprintf(buf, sizeof buf, __VA_ARGS__), buf)

/* Both modes of a one-argument double function. */
#define both(what, f, x0, want)                                                \
  do {                                                                         \
    double x = opaque(x0);                                                     \
    check_close(LABEL("%s reverse at %g", what, (double)x0),                   \
                __enzyme_autodiff((void *)f, enzyme_out, x), want, TOL);       \
    check_close(LABEL("%s forward at %g", what, (double)x0),                   \
                __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0), want, TOL);   \
  } while (0)

/* Both modes of a one-argument float function. */
#define bothf(what, f, x0, want)                                               \
  do {                                                                         \
    float x = (float)opaque(x0);                                               \
    check_close(LABEL("%s reverse at %g", what, (double)x0),                   \
                __enzyme_autodiff_f((void *)f, enzyme_out, x), want, 1e-5);    \
    check_close(LABEL("%s forward at %g", what, (double)x0),                   \
                __enzyme_fwddiff_f((void *)f, enzyme_dup, x, 1.0f), want,      \
                1e-5);                                                         \
  } while (0)

/* Two arguments: reverse struct and forward per direction. */
#define both2(what, f, x0, y0, wx, wy)                                         \
  do {                                                                         \
    double x = opaque(x0), y = opaque(y0);                                     \
    D2 g = __enzyme_autodiff_2((void *)f, enzyme_out, x, enzyme_out, y);       \
    check_close(LABEL("%s reverse d/dx at (%g, %g)", what, x0, y0), g.d0, wx,  \
                TOL);                                                          \
    check_close(LABEL("%s reverse d/dy at (%g, %g)", what, x0, y0), g.d1, wy,  \
                TOL);                                                          \
    check_close(                                                               \
        LABEL("%s forward d/dx at (%g, %g)", what, x0, y0),                    \
        __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0, enzyme_dup, y, 0.0),   \
        wx, TOL);                                                              \
    check_close(                                                               \
        LABEL("%s forward d/dy at (%g, %g)", what, x0, y0),                    \
        __enzyme_fwddiff((void *)f, enzyme_dup, x, 0.0, enzyme_dup, y, 1.0),   \
        wy, TOL);                                                              \
  } while (0)

int main(void) {
  /* fabs: sign(x) away from 0; at 0 the one-sided derivative on the side
   * of the zero's sign. */
  both("fabs", abs_fn, 0.0, 1.0);
  both("fabs", abs_fn, -0.0, -1.0);
  both("fabs", abs_fn, 2.5, 1.0);
  both("fabs", abs_fn, -2.5, -1.0);
  both("3 fabs(x) + x", abs3_fn, 0.0, 4.0);
  both("3 fabs(x) + x", abs3_fn, -0.0, -2.0);
  both("3 fabs(x) + x", abs3_fn, -0.5, -2.0);
  bothf("fabsf", absf_fn, 0.0f, 1.0);
  bothf("fabsf", absf_fn, -0.0f, -1.0);
  bothf("fabsf", absf_fn, -1.5f, -1.0);

  /* sqrt: 0 at 0; sqrt(x*x) = |x| has derivative sign(x), and 0 at 0. */
  both("sqrt", sqrt_fn, 0.0, 0.0);
  both("sqrt", sqrt_fn, 4.0, 0.25);
  both("sqrt(x*x)", sqrtsq_fn, 0.0, 0.0);
  both("sqrt(x*x)", sqrtsq_fn, -3.0, -1.0);
  both("sqrt(x*x)", sqrtsq_fn, 0.75, 1.0);
  bothf("sqrtf(x*x)", sqrtsqf_fn, 0.0f, 0.0);
  bothf("sqrtf(x*x)", sqrtsqf_fn, -3.0f, -1.0);
  both2("norm", norm_fn, 0.0, 0.0, 0.0, 0.0);
  both2("norm", norm_fn, 3.0, -4.0, 0.6, -0.8);

  /* fmax/fmin: the chosen operand's derivative. */
  both2("fmax a<b", max_fn, 0.5, 1.5, 0.0, 1.0);
  both2("fmax a>b", max_fn, 2.5, -1.0, 1.0, 0.0);
  both2("fmin a<b", min_fn, 0.5, 1.5, 1.0, 0.0);
  both2("fmin a>b", min_fn, 2.5, -1.0, 0.0, 1.0);
  both("relu", relu_fn, -0.7, 0.0);
  both("relu", relu_fn, 0.7, 1.0);
  both("clamp", clamp_fn, -3.0, 0.0);
  both("clamp", clamp_fn, 0.25, 1.0);
  both("clamp", clamp_fn, 3.0, 0.0);
  /* max(x, x^2): x on (0, 1), x^2 outside. */
  both("fmax(x, x^2)", maxsq_fn, 0.5, 1.0);
  both("fmax(x, x^2)", maxsq_fn, 3.0, 6.0);
  both("fmax(x, x^2)", maxsq_fn, -2.0, -4.0);
  both("fmin(x, x^2)", minsq_fn, 0.5, 1.0);
  both("fmin(x, x^2)", minsq_fn, 3.0, 1.0);
  /* fmaxf(x, 2x - 1): x below 1, 2x - 1 above. */
  bothf("fmaxf(x, 2x-1)", maxf_fn, 0.25f, 1.0);
  bothf("fmaxf(x, 2x-1)", maxf_fn, 4.0f, 2.0);
  return check_report();
}
