// LeakSanitizer, reverse mode with loops whose values the reverse sweep needs
// per iteration, so tapes are allocated (and grown): a recurrence with a
// run-time trip count, a data-dependent while loop run long enough to grow
// its tape several times, nested loops over an enzyme_dup array, and an
// in-place overwrite of an enzyme_dup array over several sweeps. The program
// is compiled with AddressSanitizer and run with leak detection: no leak and
// no memory error may be reported, every derivative call must leave no heap
// bytes behind, and the derivatives must match their analytic values.
// REQUIRES: lsan
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O0 %s -lm %tapestry_rt -o %t0 && %lsan_run %t0 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O2 %s -lm %tapestry_rt -o %t2 && %lsan_run %t2 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O3 %s -lm %tapestry_rt -o %t3 && %lsan_run %t3 2>&1 | FileCheck %s
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
// CHECK: ALL PASSED: 0 failure(s)
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
#include "Inputs/heap.h"
#include <stdlib.h>

extern int enzyme_out, enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
void __enzyme_autodiff_v(void *, ...);

#define TOL 1e-11

/* y_{k+1} = sin(y_k) x + 0.1 y_k, y_0 = x, n steps. */
double recurrence(double x, int n) {
  double y = x;
  for (int i = 0; i < n; i++)
    y = sin(y) * x + 0.1 * y;
  return y;
}
static double recurrence_d(double x, int n) {
  double y = x, dy = 1.0;
  for (int i = 0; i < n; i++) {
    double ny = sin(y) * x + 0.1 * y;
    dy = cos(y) * dy * x + sin(y) + 0.1 * dy;
    y = ny;
  }
  return dy;
}

/* Iterate y <- y x + c until y passes `limit`: a trip count the reverse
 * sweep only knows from the tape. With x slightly above 1 and a far limit,
 * thousands of iterations. */
double until_limit(double x, double c, double limit) {
  double y = 1.0;
  while (y < limit)
    y = y * x + c * sqrt(y);
  return y;
}
static void until_limit_d(double x, double c, double limit, double *dx,
                          double *dc) {
  double y = 1.0, yx = 0.0, yc = 0.0;
  while (y < limit) {
    double s = sqrt(y), ds = 0.5 / s;
    double nyx = yx * x + y + c * ds * yx;
    double nyc = yc * x + s + c * ds * yc;
    y = y * x + c * s;
    yx = nyx;
    yc = nyc;
  }
  *dx = yx;
  *dc = yc;
}

/* s = sum_i t_i(m), t_i(0) = a_i, t_i(j+1) = t_i(j) exp(-0.1 t_i(j)). */
double nested(const double *a, int n, int m) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    double t = a[i];
    for (int j = 0; j < m; j++)
      t = t * exp(-0.1 * t);
    s += t;
  }
  return s;
}
static double nested_d(double a, int m) {
  double t = a, dt = 1.0;
  for (int j = 0; j < m; j++) {
    double e = exp(-0.1 * t);
    dt = dt * e * (1.0 - 0.1 * t);
    t = t * e;
  }
  return dt;
}

/* `sweeps` in-place sweeps x_i <- x_i + 0.3 sin(x_{i-1}) x_i (i >= 1,
 * left to right, so each reads the new x_{i-1}), then r = sum x_i^2. */
double inplace(double *x, int n, int sweeps) {
  for (int k = 0; k < sweeps; k++)
    for (int i = 1; i < n; i++)
      x[i] = x[i] + 0.3 * sin(x[i - 1]) * x[i];
  double r = 0.0;
  for (int i = 0; i < n; i++)
    r += x[i] * x[i];
  return r;
}
/* d r / d x0_j by the tangent (chain rule) of the same sweeps. */
static double inplace_d(const double *x0, int n, int sweeps, int j) {
  double x[64], t[64];
  for (int i = 0; i < n; i++) {
    x[i] = x0[i];
    t[i] = i == j;
  }
  for (int k = 0; k < sweeps; k++)
    for (int i = 1; i < n; i++) {
      double s = sin(x[i - 1]), c = cos(x[i - 1]);
      t[i] = t[i] + 0.3 * (c * t[i - 1] * x[i] + s * t[i]);
      x[i] = x[i] + 0.3 * s * x[i];
    }
  double dr = 0.0;
  for (int i = 0; i < n; i++)
    dr += 2 * x[i] * t[i];
  return dr;
}

static char label[128];
#define LABEL(...) (snprintf(label, sizeof label, __VA_ARGS__), label)

int main(void) {
  for (int rep = 0; rep < 3; rep++) {
    /* recurrence: a tape of n values of y */
    int ns[] = {1, 7, 100, 3000};
    for (int k = 0; k < 4; k++) {
      double x = 0.7 + 0.05 * k, d = 0;
      HEAP_CHECK(LABEL("recurrence n=%d", ns[k]), 1,
                 d = __enzyme_autodiff((void *)recurrence, enzyme_out, x,
                                       enzyme_const, ns[k]));
      check_close(LABEL("recurrence n=%d", ns[k]), d,
                  recurrence_d(x, ns[k]), TOL);
    }

    /* while loop: thousands of iterations, the tape grows several times */
    typedef struct { double dx, dc; } G2;
    G2 __enzyme_autodiff_2(void *, ...);
    double limits[] = {10.0, 1e4, 1e12};
    for (int k = 0; k < 3; k++) {
      G2 g = {0, 0};
      HEAP_CHECK(LABEL("until_limit %g", limits[k]), 1,
                 g = __enzyme_autodiff_2((void *)until_limit, enzyme_out,
                                         1.01, enzyme_out, 0.02, enzyme_const,
                                         limits[k]));
      double wx, wc;
      until_limit_d(1.01, 0.02, limits[k], &wx, &wc);
      check_close(LABEL("until_limit %g d/dx", limits[k]), g.dx, wx, 1e-9);
      check_close(LABEL("until_limit %g d/dc", limits[k]), g.dc, wc, 1e-9);
    }

    /* nested loops over an enzyme_dup array */
    enum { N = 40, M = 25 };
    double a[N], da[N];
    for (int i = 0; i < N; i++) {
      a[i] = 0.5 + 0.1 * i;
      da[i] = 0.0;
    }
    HEAP_CHECK("nested", 1,
               __enzyme_autodiff_v((void *)nested, enzyme_dup, a, da,
                                   enzyme_const, N, enzyme_const, M));
    for (int i = 0; i < N; i += 13)
      check_close(LABEL("nested d/da[%d]", i), da[i], nested_d(a[i], M), TOL);

    /* in-place overwrite: the tape keeps every overwritten x_i */
    enum { P = 24, S = 5 };
    double x0[P], x[P], dx[P];
    for (int i = 0; i < P; i++)
      x0[i] = 0.2 + 0.03 * i;
    for (int i = 0; i < P; i++) {
      x[i] = x0[i];
      dx[i] = 0.0;
    }
    HEAP_CHECK("inplace", 1,
               __enzyme_autodiff_v((void *)inplace, enzyme_dup, x, dx,
                                   enzyme_const, P, enzyme_const, S));
    for (int j = 0; j < P; j += 5)
      check_close(LABEL("inplace d/dx[%d]", j), dx[j],
                  inplace_d(x0, P, S, j), TOL);
  }
  return check_report();
}
