// Newton's method run until convergence (while loops whose exit depends on
// the data) inside differentiated array code, in reverse and forward mode
// against central finite differences: an element-wise scalar Newton solve
// (nested in a counted loop), a do-while Newton minimisation of a convex
// function of a vector with a tridiagonal Hessian solved by the Thomas
// algorithm in malloc'd scratch arrays, and an in-place element-wise solve.
// Differentiating the iterations gives the derivative of the fixed point.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_autodiff_d(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_v(void *, ...);

#include "Inputs/gradcheck.h"

/* y_i solves y^3 + y = x_i; returns sum (i+1) y_i */
double cubic_roots(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double y = x[i], step = 1;
    while (fabs(step) > 1e-15 * (1 + fabs(y))) {
      step = (y * y * y + y - x[i]) / (3 * y * y + 1);
      y -= step;
    }
    s += (i + 1) * y;
  }
  return s;
}

/* Solve the tridiagonal system (sub a, diag b, super c) x = d in place in d,
   using scratch cp (Thomas algorithm). */
static void thomas(const double *a, const double *b, const double *c, double *d,
                   double *cp, int n) {
  cp[0] = c[0] / b[0];
  d[0] = d[0] / b[0];
  for (int i = 1; i < n; i++) {
    double m = b[i] - a[i] * cp[i - 1];
    cp[i] = i + 1 < n ? c[i] / m : 0;
    d[i] = (d[i] - a[i] * d[i - 1]) / m;
  }
  for (int i = n - 2; i >= 0; i--)
    d[i] -= cp[i] * d[i + 1];
}

/* y minimises sum_i (exp(y_i) - a_i y_i) + k/2 sum_i (y_{i+1} - y_i)^2;
   returns sum_i w_i y_i^2 with w_i = 1 + i/2. */
double newton_min(const double *a, double k, int n) {
  double *y = calloc(n, sizeof *y);
  double *sub = malloc(n * sizeof *sub), *diag = malloc(n * sizeof *diag),
         *sup = malloc(n * sizeof *sup), *g = malloc(n * sizeof *g),
         *cp = malloc(n * sizeof *cp);
  double norm;
  int it = 0;
  do {
    for (int i = 0; i < n; i++) {
      double e = exp(y[i]);
      g[i] = e - a[i];
      diag[i] = e;
      sub[i] = sup[i] = 0;
      if (i > 0) {
        g[i] += k * (y[i] - y[i - 1]);
        diag[i] += k;
        sub[i] = -k;
      }
      if (i + 1 < n) {
        g[i] -= k * (y[i + 1] - y[i]);
        diag[i] += k;
        sup[i] = -k;
      }
    }
    thomas(sub, diag, sup, g, cp, n);
    norm = 0;
    for (int i = 0; i < n; i++) {
      y[i] -= g[i];
      norm += g[i] * g[i];
    }
  } while (norm > 1e-28 && ++it < 100);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (1 + 0.5 * i) * y[i] * y[i];
  free(sub), free(diag), free(sup), free(g), free(cp), free(y);
  return s;
}

/* x_i <- the positive root of y^2 = x_i + 1 (Newton from x_i + 1), in place,
   then returns sum x_i^3. */
double sqrt_inplace(double *x, int n) {
  for (int i = 0; i < n; i++) {
    double t = x[i] + 1, y = t;
    for (;;) {
      double next = 0.5 * (y + t / y);
      if (fabs(next - y) <= 1e-15 * next) {
        y = next;
        break;
      }
      y = next;
    }
    x[i] = y;
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * x[i];
  return s;
}

#define NN 6

static double cr_eval(const double *p) {
  double *x = copy_of(p, NN);
  double r = cubic_roots(x, NN);
  free(x);
  return r;
}
static void cr_grad(const double *p, double *g) {
  double *x = copy_of(p, NN);
  __enzyme_autodiff((void *)cubic_roots, enzyme_dup, x, g, enzyme_const, NN);
  free(x);
}
static double cr_tangent(const double *p, int j) {
  double *x = copy_of(p, NN), *tx = unit_slice(j, 0, NN);
  double t = __enzyme_fwddiff((void *)cubic_roots, enzyme_dup, x, tx,
                              enzyme_const, NN);
  free(x), free(tx);
  return t;
}
static void cr_analytic(const double *p) {
  double x[NN], dx[NN] = {0};
  memcpy(x, p, sizeof x);
  __enzyme_autodiff((void *)cubic_roots, enzyme_dup, x, dx, enzyme_const, NN);
  for (int i = 0; i < NN; i++) {
    double y = cbrt(x[i]); /* a start; refine to the root */
    for (int k = 0; k < 60; k++)
      y -= (y * y * y + y - x[i]) / (3 * y * y + 1);
    check_close(LABEL("cubic_roots: dx[%d] = (i+1)/(3y^2+1)", i), dx[i],
                (i + 1) / (3 * y * y + 1), 1e-13);
  }
}

/* p = [a (NN), k] */
static double nm_eval(const double *p) {
  double *a = copy_of(p, NN);
  double r = newton_min(a, p[NN], NN);
  free(a);
  return r;
}
static void nm_grad(const double *p, double *g) {
  double *a = copy_of(p, NN);
  g[NN] = __enzyme_autodiff_d((void *)newton_min, enzyme_dup, a, g, enzyme_out,
                              p[NN], enzyme_const, NN);
  free(a);
}
static double nm_tangent(const double *p, int j) {
  double *a = copy_of(p, NN), *ta = unit_slice(j, 0, NN);
  double t = __enzyme_fwddiff((void *)newton_min, enzyme_dup, a, ta, enzyme_dup,
                              p[NN], (double)(j == NN), enzyme_const, NN);
  free(a), free(ta);
  return t;
}

static double si_eval(const double *p) {
  double *x = copy_of(p, NN);
  double r = sqrt_inplace(x, NN);
  free(x);
  return r;
}
static void si_grad(const double *p, double *g) {
  double *x = copy_of(p, NN);
  __enzyme_autodiff((void *)sqrt_inplace, enzyme_dup, x, g, enzyme_const, NN);
  for (int i = 0; i < NN; i++)
    check_close(LABEL("sqrt_inplace: reverse mode leaves the primal x[%d]", i),
                x[i], sqrt(p[i] + 1), 1e-15);
  free(x);
}
static double si_tangent(const double *p, int j) {
  double *x = copy_of(p, NN), *tx = unit_slice(j, 0, NN);
  double t = __enzyme_fwddiff((void *)sqrt_inplace, enzyme_dup, x, tx,
                              enzyme_const, NN);
  free(x), free(tx);
  return t;
}

int main(void) {
  double p[NN + 1];
  fill(p, NN, -3.0, 5.0, 9);
  compare("cubic_roots", NN, p, cr_eval, cr_grad, cr_tangent);
  cr_analytic(p);
  fill(p, NN, 0.5, 3.0, 10);
  p[NN] = 0.7;
  compare("newton_min", NN + 1, p, nm_eval, nm_grad, nm_tangent);
  compare("sqrt_inplace", NN, p, si_eval, si_grad, si_tangent);
  return check_report();
}
