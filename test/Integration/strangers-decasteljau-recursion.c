// A CAD user's program: a point on a Bezier curve by de Casteljau's
// algorithm written recursively (each level allocates the next row of
// control points with malloc, recurses, and frees it), in double and in
// float. Reverse mode gives the derivative of a weighted coordinate sum
// with respect to every control point, which must be the Bernstein basis
// polynomials B_{i,n}(t); forward mode in t gives the hodograph
// n sum (P_{i+1} - P_i) B_{i,n-1}(t). Expected: those formulas, computed in
// closed form (binomial coefficients and powers).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang_enzyme -O1 %s -S -emit-llvm -o - | lli - | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
float __enzyme_fwddiff_f(void *, ...);

#define DEG 6

/* pts: n+1 points of dimension 2, interleaved. */
static void casteljau(const double *pts, int n, double t, double *out) {
  if (n == 0) {
    out[0] = pts[0];
    out[1] = pts[1];
    return;
  }
  double *next = malloc(2 * n * sizeof(double));
  for (int i = 0; i < n; i++)
    for (int d = 0; d < 2; d++)
      next[2 * i + d] = (1 - t) * pts[2 * i + d] + t * pts[2 * (i + 1) + d];
  casteljau(next, n - 1, t, out);
  free(next);
}

double weighted_point(const double *pts, double t) {
  double p[2];
  casteljau(pts, DEG, t, p);
  return 0.6 * p[0] - 1.7 * p[1];
}

static float casteljau_f(const float *pts, int n, float t) {
  if (n == 0)
    return pts[0];
  float next[DEG];
  for (int i = 0; i < n; i++)
    next[i] = (1 - t) * pts[i] + t * pts[i + 1];
  return casteljau_f(next, n - 1, t);
}

float curve_f(const float *pts, float t) { return casteljau_f(pts, DEG, t); }

static double bernstein(int i, int n, double t) {
  double c = 1;
  for (int k = 1; k <= i; k++)
    c = c * (n - i + k) / k;
  return c * pow(t, i) * pow(1 - t, n - i);
}

int main(void) {
  double pts[2 * (DEG + 1)];
  for (int i = 0; i <= DEG; i++) {
    pts[2 * i] = i + 0.3 * sin(i);
    pts[2 * i + 1] = cos(1.1 * i) * (1 + 0.1 * i);
  }
  const double t = 0.37;
  double dpts[2 * (DEG + 1)] = {0};
  __enzyme_autodiff((void *)weighted_point, enzyme_dup, pts, dpts, enzyme_const,
                    t);
  for (int i = 0; i <= DEG; i++) {
    char name[40];
    snprintf(name, sizeof name, "d/dP%d.x = 0.6 B_%d", i, i);
    check_close(name, dpts[2 * i], 0.6 * bernstein(i, DEG, t), 1e-13);
    snprintf(name, sizeof name, "d/dP%d.y = -1.7 B_%d", i, i);
    check_close(name, dpts[2 * i + 1], -1.7 * bernstein(i, DEG, t), 1e-13);
  }

  double zero[2 * (DEG + 1)] = {0};
  double dt = __enzyme_fwddiff((void *)weighted_point, enzyme_dup, pts, zero,
                               t, 1.0);
  double want = 0;
  for (int i = 0; i < DEG; i++)
    want += DEG * bernstein(i, DEG - 1, t) *
            (0.6 * (pts[2 * i + 2] - pts[2 * i]) -
             1.7 * (pts[2 * i + 3] - pts[2 * i + 1]));
  check_close("hodograph d/dt", dt, want, 1e-12);

  /* Reverse in t too (the recursion's allocations are reversed). */
  double dpts2[2 * (DEG + 1)] = {0};
  typedef struct {
    double dt;
  } DT;
  DT (*grad_t)(void *, ...) = (DT(*)(void *, ...))__enzyme_autodiff;
  DT r = grad_t((void *)weighted_point, enzyme_dup, pts, dpts2, enzyme_out, t);
  check_close("reverse d/dt", r.dt, want, 1e-12);

  float fp[DEG + 1], dfp[DEG + 1] = {0};
  for (int i = 0; i <= DEG; i++)
    fp[i] = (float)pts[2 * i + 1];
  float ft = __enzyme_fwddiff_f((void *)curve_f, enzyme_dup, fp, dfp, 0.37f,
                                1.0f);
  double fwant = 0;
  for (int i = 0; i < DEG; i++)
    fwant += DEG * bernstein(i, DEG - 1, 0.37f) * (fp[i + 1] - fp[i]);
  check_close("float hodograph", ft, fwant, 1e-5);
  return check_report();
}
