// C99's complex tangents, inverse functions and projection inside
// differentiated code: ctan, ctanh, casin, cacos, catan, casinh, cacosh,
// catanh and cproj, double and float (and csqrt, near the real axis). Each objective mixes the real and
// imaginary parts of the result; its gradient (reverse) and its derivative
// along the real part (forward) are compared with central finite
// differences of the C library's own functions. The values the
// differentiated code computes (its real formulas) are compared with the
// C library's to a few units in the last place, also near zero, where the
// functions are close to z and a formula with cancellation would lose
// digits, and for a large real part, where cosh overflows.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %plain_cc -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cc %t.bc -lm -o %to && %to | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <complex.h>
#include <float.h>

typedef struct {
  double da, db;
} Grad;
typedef struct {
  float da, db;
} GradF;
extern int enzyme_dup, enzyme_out, enzyme_const;
extern Grad __enzyme_autodiff(void *, ...);
extern GradF __enzyme_autodiff_f(void *, ...) __asm__("__enzyme_autodiff");
extern double __enzyme_fwddiff(void *, ...);
extern float __enzyme_fwddiff_f(void *, ...) __asm__("__enzyme_fwddiff");
extern void __enzyme_autodiff_void(void *, ...) __asm__("__enzyme_autodiff");

typedef double complex (*CFn)(double complex);

#define DEFINE(name)                                                           \
  double d_##name(double a, double b) {                                        \
    double complex w = name(__builtin_complex(a, b));                                      \
    return creal(w) + 0.7 * cimag(w);                                          \
  }                                                                            \
  float f_##name(float a, float b) {                                           \
    float complex w = name##f(__builtin_complex(a, b));                                   \
    return crealf(w) + 0.7f * cimagf(w);                                       \
  }                                                                            \
  void v_##name(double *out, double a, double b) {                             \
    double complex w = name(__builtin_complex(a, b));                                      \
    out[0] = creal(w);                                                         \
    out[1] = cimag(w);                                                         \
  }

DEFINE(ctan)
DEFINE(ctanh)
DEFINE(casin)
DEFINE(cacos)
DEFINE(catan)
DEFINE(casinh)
DEFINE(cacosh)
DEFINE(catanh)
DEFINE(cproj)
DEFINE(csqrt)

/* Within a few units in the last place of the C library's value. */
static void check_ulps(const char *what, double got, double want) {
  double tol = 8 * DBL_EPSILON * fabs(want) + 1e-300;
  if (fabs(got - want) <= tol) {
    printf("PASS %s: got %.17g want %.17g\n", what, got, want);
    return;
  }
  check_close(what, got, want, 0); /* prints FAIL */
}

/* What the requests at one point gave. */
typedef struct {
  Grad g, gv;
  double t;
  GradF gf;
  float tf;
  double out[2];
} Results;

#define REQUEST(name, a, b)                                                    \
  ({                                                                           \
    Results r_;                                                                \
    double dout_[2] = {1.0, 0.7};                                              \
    r_.g = __enzyme_autodiff((void *)d_##name, a, b);                          \
    r_.t = __enzyme_fwddiff((void *)d_##name, a, 1.0, b, 0.0);                 \
    r_.gf = __enzyme_autodiff_f((void *)f_##name, (float)(a), (float)(b));     \
    r_.tf = __enzyme_fwddiff_f((void *)f_##name, (float)(a), 0.0f, (float)(b), \
                               1.0f);                                          \
    r_.gv = __enzyme_autodiff((void *)v_##name, enzyme_dup, r_.out, dout_, a,  \
                              b);                                              \
    r_;                                                                        \
  })

static void check_one(const char *name, double (*d)(double, double), CFn lib,
                      double a, double b, Results r) {
  char label[96];
  const double h = 1e-6;
  double fa = (d(a + h, b) - d(a - h, b)) / (2 * h);
  double fb = (d(a, b + h) - d(a, b - h)) / (2 * h);
  snprintf(label, sizeof label, "%s(%g, %g) d/da", name, a, b);
  check_close(label, r.g.da, fa, 1e-7);
  snprintf(label, sizeof label, "%s(%g, %g) d/db", name, a, b);
  check_close(label, r.g.db, fb, 1e-7);
  snprintf(label, sizeof label, "%s(%g, %g) forward d/da", name, a, b);
  check_close(label, r.t, fa, 1e-7);
  snprintf(label, sizeof label, "%sf(%g, %g) d/da", name, a, b);
  check_close(label, r.gf.da, fa, 2e-4);
  snprintf(label, sizeof label, "%sf(%g, %g) d/db", name, a, b);
  check_close(label, r.gf.db, fb, 2e-4);
  snprintf(label, sizeof label, "%sf(%g, %g) forward d/db", name, a, b);
  check_close(label, r.tf, fb, 2e-4);
  /* The value the derivative's own primal computes, and the adjoint of an
     output pair seeded with (1, 0.7): the same gradient. */
  double complex want = lib(__builtin_complex(a, b));
  snprintf(label, sizeof label, "%s(%g, %g) value, real", name, a, b);
  check_ulps(label, r.out[0], creal(want));
  snprintf(label, sizeof label, "%s(%g, %g) value, imaginary", name, a, b);
  check_ulps(label, r.out[1], cimag(want));
  snprintf(label, sizeof label, "%s(%g, %g) d/da through memory", name, a, b);
  check_close(label, r.gv.da, fa, 1e-7);
}

#define CHECK(name, a, b)                                                      \
  check_one(#name, d_##name, name, a, b, REQUEST(name, a, b))

int main(void) {
  static const double points[][2] = {
      {0.3, 0.4}, {-0.6, 0.25}, {1.7, -0.3}, {-1.4, -0.8}, {0.2, 2.5},
      {1e-9, -2e-9}, {-3e-9, 1e-9}};
  for (unsigned k = 0; k < sizeof points / sizeof points[0]; ++k) {
    double a = points[k][0], b = points[k][1];
    CHECK(ctan, a, b);
    CHECK(ctanh, a, b);
    CHECK(casin, a, b);
    CHECK(cacos, a, b);
    CHECK(catan, a, b);
    CHECK(casinh, a, b);
    /* Near zero, acosh is on its cut (the real axis left of 1), where a
       finite difference has no meaning. */
    if (fabs(a) > 1e-3) {
      CHECK(cacosh, a, b);
      CHECK(csqrt, a, b);
    }
    CHECK(catanh, a, b);
    CHECK(cproj, a, b);
  }
  /* csqrt beside the real axis: the small part is b / 2 sqrt(|a|), not a
     difference of nearly equal numbers. */
  /* At a real part of -0 (an ordinary point of sqrt when b != 0), the
     branch must be the one |a|'s derivative takes (review25). */
  CHECK(csqrt, -0.0, 2.0);
  CHECK(csqrt, -0.0, -0.5);
  CHECK(csqrt, 4.0, 1e-9);
  CHECK(csqrt, -4.0, 1e-5);
  /* Far from the origin along the axis where cosh would overflow: tanh is
     1 there, with derivatives about 4 exp(-800). */
  CHECK(ctanh, 400.0, 0.3);
  CHECK(ctanh, -400.0, 0.3);
  CHECK(ctan, 0.3, 400.0);
  /* cproj of an infinite value is (inf, +-0), with derivative 0. */
  double out[2], dout[2] = {1.0, 1.0};
  Grad gi = __enzyme_autodiff((void *)v_cproj, enzyme_dup, out, dout,
                              -HUGE_VAL, -2.0);
  check_close("cproj(-inf, -2) real is +inf", out[0] == HUGE_VAL, 1, 0);
  check_close("cproj(-inf, -2) imaginary is -0", copysign(1.0, out[1]), -1.0,
              0);
  check_close("cproj(-inf, -2) d/db", gi.db, 0.0, 0);
  return check_report();
}
