// A numerical user's program: a natural cubic spline through (t_i, y_i),
// its second derivatives M_i from the tridiagonal system solved with the
// Thomas algorithm, evaluated at query points located with a hand-written
// binary search over the knots (no bsearch). The loss is
// L = sum_q w_q S(x_q); gradient with respect to the knot values y
// (reverse, enzyme_dup) and dS/dx at each query (forward mode).
// Expected: dS/dx is the spline's own analytic derivative
// S'(x) = -M_i (t_{i+1}-x)^2/(2h) + M_{i+1}(x-t_i)^2/(2h)
//         + (y_{i+1}-y_i)/h - (M_{i+1}-M_i) h/6;
// dL/dy_j is computed by central differences (the spline is linear in y,
// so the difference is exact up to rounding).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

#define NK 8
#define NQ 6

/* Natural spline second derivatives: M_0 = M_{n-1} = 0. */
static void spline_moments(int n, const double *t, const double *y,
                           double *M) {
  double c[NK], d[NK];
  M[0] = M[n - 1] = 0.0;
  /* unknowns M_1..M_{n-2}: h_{i-1} M_{i-1} + 2(h_{i-1}+h_i) M_i + h_i M_{i+1}
     = 6((y_{i+1}-y_i)/h_i - (y_i-y_{i-1})/h_{i-1}) */
  for (int i = 1; i < n - 1; ++i) {
    double hl = t[i] - t[i - 1], hr = t[i + 1] - t[i];
    double rhs = 6.0 * ((y[i + 1] - y[i]) / hr - (y[i] - y[i - 1]) / hl);
    double diag = 2.0 * (hl + hr);
    if (i > 1) {
      diag -= hl * c[i - 1];
      rhs -= hl * d[i - 1];
    }
    c[i] = hr / diag;
    d[i] = rhs / diag;
  }
  M[n - 2] = d[n - 2];
  for (int i = n - 3; i >= 1; --i)
    M[i] = d[i] - c[i] * M[i + 1];
}

static int find_interval(int n, const double *t, double x) {
  int lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (t[mid] <= x)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

static double spline_eval_m(const double *t, const double *y, const double *M,
                            double x) {
  int i = find_interval(NK, t, x);
  double h = t[i + 1] - t[i], a = t[i + 1] - x, b = x - t[i];
  return M[i] * a * a * a / (6 * h) + M[i + 1] * b * b * b / (6 * h) +
         (y[i] / h - M[i] * h / 6) * a + (y[i + 1] / h - M[i + 1] * h / 6) * b;
}

double spline_at(const double *t, const double *y, double x) {
  double M[NK];
  spline_moments(NK, t, y, M);
  return spline_eval_m(t, y, M, x);
}

double loss(const double *t, const double *y, const double *xq,
            const double *w) {
  double M[NK];
  spline_moments(NK, t, y, M);
  double l = 0;
  for (int q = 0; q < NQ; ++q)
    l += w[q] * spline_eval_m(t, y, M, xq[q]);
  return l;
}

int main(void) {
  double t[NK], y[NK], dy[NK] = {0};
  double xq[NQ] = {0.05, 0.8, 1.95, 2.5, 3.7, 4.49};
  double w[NQ] = {1.0, -0.5, 2.0, 0.75, -1.25, 0.3};
  for (int i = 0; i < NK; ++i) {
    t[i] = 0.65 * i + 0.05 * i * i - 0.1; /* uneven knots */
    y[i] = sin(0.9 * t[i]) + 0.1 * i;
  }
  __enzyme_autodiff((void *)loss, enzyme_const, t, enzyme_dup, y, dy,
                    enzyme_const, xq, enzyme_const, w);
  for (int j = 0; j < NK; ++j) {
    double save = y[j], h = 1e-4;
    y[j] = save + h;
    double lp = loss(t, y, xq, w);
    y[j] = save - h;
    double lm = loss(t, y, xq, w);
    y[j] = save;
    check_close("dL/dy", dy[j], (lp - lm) / (2 * h), 1e-8);
  }
  double M[NK];
  spline_moments(NK, t, y, M);
  for (int q = 0; q < NQ; ++q) {
    double x = xq[q];
    int i = find_interval(NK, t, x);
    double h = t[i + 1] - t[i], a = t[i + 1] - x, b = x - t[i];
    double want = -M[i] * a * a / (2 * h) + M[i + 1] * b * b / (2 * h) +
                  (y[i + 1] - y[i]) / h - (M[i + 1] - M[i]) * h / 6;
    double got = __enzyme_fwddiff((void *)spline_at, enzyme_const, t,
                                  enzyme_const, y, x, 1.0);
    check_close("dS/dx", got, want, 1e-11);
  }
  return check_report();
}
