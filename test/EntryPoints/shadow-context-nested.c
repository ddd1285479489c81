// Shadow contexts nest: a forward derivative, in one context, of a function
// that makes a reverse derivative in a context of its own. The inner
// derivative adds the adjoint of g to g's shadow in its context; the outer
// one reads g's tangent from g's shadow in the outer context. Split mode
// (__enzyme_augmentfwd with __enzyme_reverse or __enzyme_fwdsplit) uses a
// context's shadows too.
// Expected values are analytic.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_context, enzyme_dup, enzyme_const;
void *__enzyme_context(int);
void *__enzyme_shadow(void *, void *, int);
void __enzyme_zero_shadows(void *);
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
void __enzyme_fwdsplit(void *, ...);

double g = 1.25;

// f = g x sin(x)
double f(double x) { return g * x * sin(x); }

// df = g (sin x + x cos x)
double df(double x) {
  void *inner = __enzyme_context(1);
  *(double *)__enzyme_shadow(inner, &g, 0) = 0.0;
  return __enzyme_autodiff((void *)f, enzyme_context, inner, x);
}

// y = g x^2
void sq(double *x, double *y) { *y = g * *x * *x; }

int main(void) {
  double x = 0.6;
  void *outer = __enzyme_context(1);
  double *dg = (double *)__enzyme_shadow(outer, &g, 0);

  check_close("inner", df(x), g * (sin(x) + x * cos(x)), 1e-12);
  *dg = 0.0;
  double d2 = __enzyme_fwddiff((void *)df, enzyme_context, outer, x, 1.0);
  check_close("d2f/dx2", d2, g * (2 * cos(x) - x * sin(x)), 1e-12);
  *dg = 1.0;
  double dgx = __enzyme_fwddiff((void *)df, enzyme_context, outer, x, 0.0);
  check_close("d2f/dx dg", dgx, sin(x) + x * cos(x), 1e-12);

  // Split mode in a context.
  void *ctx = __enzyme_context(1);
  double *dgs = (double *)__enzyme_shadow(ctx, &g, 0);
  double y = 0, dx = 0, dy = 1.0;
  void *tape = __enzyme_augmentfwd((void *)sq, enzyme_context, ctx,
                                   enzyme_dup, &x, &dx, enzyme_dup, &y, &dy);
  check_close("split primal", y, g * x * x, 1e-15);
  __enzyme_reverse((void *)sq, enzyme_context, ctx, enzyme_dup, &x, &dx,
                   enzyme_dup, &y, &dy, tape);
  check_close("split dx", dx, 2 * g * x, 1e-12);
  check_close("split dg", *dgs, x * x, 1e-12);
  check_close("split leaves the outer context alone", *dg, 1.0, 0);

  // Split forward mode: the tangent of g is read from its shadow.
  *dgs = 1.0;
  dx = 0.5;
  void *tape2 = __enzyme_augmentfwd((void *)sq, enzyme_context, ctx,
                                    enzyme_dup, &x, &dx, enzyme_dup, &y, &dy);
  __enzyme_fwdsplit((void *)sq, enzyme_context, ctx, enzyme_dup, &x, &dx,
                    enzyme_dup, &y, &dy, tape2);
  check_close("fwdsplit tangent", dy, x * x + 2 * g * x * 0.5, 1e-12);
  return check_report();
}
