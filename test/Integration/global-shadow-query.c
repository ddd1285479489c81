// Enzyme's query of a global's shadow without a context,
// __enzyme_shadow(&g, width, lane) (its ForwardModeVector/
// global_shadow_query.c): the address of that lane of g's shadow, which
// the program seeds and reads. Reverse mode adds g's adjoint there even
// where the code only reads g, and no request zeroes it (a second gradient
// adds again, as in Enzyme); forward mode reads g's tangent from it; a
// batch of width 2 reads lane 1 from the lane-1 shadow. On a double, a
// struct member and an array element. Was an error ("the first argument
// of __enzyme_shadow must be a context"; found by running Enzyme's own
// tests, probe35b). f(x) = g x^2 + blk.b x + arr[1] sin(x):
// df/dx = 2 g x + blk.b + arr[1] cos(x), df/dg = x^2, df/dblk.b = x,
// df/darr[1] = sin(x).
// RUN: %clang_fplugin -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang_fplugin -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang_fplugin -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang_fplugin -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>

typedef struct {
  double d1, d2;
} Pair;

extern void *__enzyme_shadow(void *, int, int);
extern double __enzyme_autodiff(double (*)(double), ...);
extern double __enzyme_fwddiff(double (*)(double), ...);
extern Pair __enzyme_fwddiff_pair(double (*)(double), ...)
    __asm__("__enzyme_fwddiff");
extern int enzyme_width;

double g = 2.0;
struct {
  double a, b;
} blk = {1.0, 3.0};
double arr[3] = {0.5, -1.25, 4.0};

double f(double x) { return g * x * x + blk.b * x + arr[1] * sin(x); }

int main(void) {
  double *dg = (double *)__enzyme_shadow(&g, 1, 0);
  double *db = (double *)__enzyme_shadow(&blk.b, 1, 0);
  double *da = (double *)__enzyme_shadow(&arr[1], 1, 0);
  for (double x = -1.0; x <= 2.0; x += 1.5) {
    *dg = *db = *da = 0;
    double want = 2 * g * x + blk.b + arr[1] * cos(x);
    check_close("df/dx", __enzyme_autodiff(f, x), want, 1e-12);
    check_close("df/dg", *dg, x * x, 1e-12);
    check_close("df/db", *db, x, 1e-12);
    check_close("df/darr1", *da, sin(x), 1e-12);
    /* Not zeroed by the next request: adds again. */
    __enzyme_autodiff(f, x);
    check_close("df/dg twice", *dg, 2 * x * x, 1e-12);
    check_close("df/darr1 twice", *da, 2 * sin(x), 1e-12);
    /* Forward: tangents seeded in the shadows, x's tangent 0. */
    *dg = 1;
    *db = 0;
    *da = 0;
    check_close("fwd dg", __enzyme_fwddiff(f, x, 0.0), x * x, 1e-12);
    *dg = 0;
    *da = 2;
    check_close("fwd darr1", __enzyme_fwddiff(f, x, 0.0), 2 * sin(x), 1e-12);
    /* Width 2: lane 0 seeds g, lane 1 seeds blk.b. */
    double *dg0 = (double *)__enzyme_shadow(&g, 2, 0);
    double *dg1 = (double *)__enzyme_shadow(&g, 2, 1);
    double *db0 = (double *)__enzyme_shadow(&blk.b, 2, 0);
    double *db1 = (double *)__enzyme_shadow(&blk.b, 2, 1);
    double *da0 = (double *)__enzyme_shadow(&arr[1], 2, 0);
    double *da1 = (double *)__enzyme_shadow(&arr[1], 2, 1);
    *dg0 = 1;
    *dg1 = 0;
    *db0 = 0;
    *db1 = 1;
    *da0 = *da1 = 0;
    Pair t = __enzyme_fwddiff_pair(f, enzyme_width, 2, x, 0.0, 0.0);
    check_close("batch lane 0", t.d1, x * x, 1e-12);
    check_close("batch lane 1", t.d2, x, 1e-12);
  }
  return check_report();
}
