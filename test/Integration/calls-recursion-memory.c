// Recursion through a function that writes memory: each recursive call gets
// its own augmented forward and reverse, with its own tape, so the reverse
// sweep sees the memory as each call left it. Prefix sums in place,
// recursively: y_k = x_0 + ... + x_k, so with seed w in the shadow,
// dx_i = w_i + ... + w_{n-1}; and a recursive in-place scaling by
// sin(x_{k-1}) (nonlinear in what earlier calls wrote), against finite
// differences. Reverse and forward mode, -O0 to -O3.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <string.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

void prefix(double *x, int n) {
  if (n <= 1)
    return;
  prefix(x, n - 1);
  x[n - 1] += x[n - 2];
}

/* x[k] *= 1 + sin(x[k-1]) for k = n-1 .. 1, deepest call first. */
void waves(double *x, int n) {
  if (n <= 1)
    return;
  waves(x, n - 1);
  x[n - 1] *= 1 + sin(x[n - 2]);
}

static double waves_loss(const double *x0, const double *w, int n) {
  double x[8];
  memcpy(x, x0, n * sizeof(double));
  waves(x, n);
  double l = 0;
  for (int i = 0; i < n; i++)
    l += w[i] * x[i];
  return l;
}

int main(void) {
  enum { N = 6 };
  double x0[N] = {0.3, -0.2, 0.5, 0.1, -0.4, 0.7};
  double w[N] = {1, 2, -1, 0.5, 3, -2};

  double x[N], dx[N];
  memcpy(x, x0, sizeof x);
  memcpy(dx, w, sizeof w);
  __enzyme_autodiff((void *)prefix, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double want = 0, y = 0;
    for (int k = i; k < N; k++)
      want += w[k];
    for (int k = 0; k <= i; k++)
      y += x0[k];
    check_close("prefix primal", x[i], y, 1e-15);
    check_close("prefix reverse", dx[i], want, 1e-14);
  }
  /* Forward: the tangent of y_k along e_j is 1 for k >= j. */
  for (int j = 0; j < N; j++) {
    double t[N] = {0};
    t[j] = 1;
    memcpy(x, x0, sizeof x);
    __enzyme_fwddiff((void *)prefix, enzyme_dup, x, t, enzyme_const, N);
    for (int k = 0; k < N; k++)
      check_close("prefix forward", t[k], k >= j ? 1 : 0, 0);
  }

  memcpy(x, x0, sizeof x);
  memcpy(dx, w, sizeof w);
  __enzyme_autodiff((void *)waves, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double h = 1e-6, xp[N], xm[N];
    memcpy(xp, x0, sizeof xp);
    memcpy(xm, x0, sizeof xm);
    xp[i] += h;
    xm[i] -= h;
    double fd = (waves_loss(xp, w, N) - waves_loss(xm, w, N)) / (2 * h);
    check_close("waves reverse vs finite difference", dx[i], fd, 1e-7);
    double t[N] = {0};
    t[i] = 1;
    double xf[N];
    memcpy(xf, x0, sizeof xf);
    __enzyme_fwddiff((void *)waves, enzyme_dup, xf, t, enzyme_const, N);
    double dot = 0;
    for (int k = 0; k < N; k++)
      dot += w[k] * t[k];
    check_close("waves forward vs finite difference", dot, fd, 1e-7);
  }
  return check_report();
}
