// Locals whose scope ends before the reverse sweep reads them, and sin and
// cos of one angle. The derivative no longer takes the end of a scope as a
// write: a local array nothing writes after it is read (Rodrigues' w and
// w x p) is read again by the reverse sweep instead of being taped, and
// one that the next iteration of a loop writes again (s[] below) is still
// taped. The partial of sin is the cos the code takes of the same angle,
// and the other way round. Gradients, tangents and a batch of tangents,
// against central finite differences.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed, enzyme_width;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

// Rodrigues' rotation of p by the angle-axis r, as bundle adjustment
// writes it: w and wx go out of scope before the result is used.
static void rotate(const double *r, const double *p, double *out) {
  double t2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  double t = sqrt(t2), c = cos(t), s = sin(t);
  double w[3] = {r[0] / t, r[1] / t, r[2] / t};
  double wx[3] = {w[1] * p[2] - w[2] * p[1], w[2] * p[0] - w[0] * p[2],
                  w[0] * p[1] - w[1] * p[0]};
  double tmp = (w[0] * p[0] + w[1] * p[1] + w[2] * p[2]) * (1 - c);
  for (int i = 0; i < 3; i++)
    out[i] = p[i] * c + wx[i] * s + w[i] * tmp;
}

// Sum of the rotated points' x / z, each point rotated by its own angle.
void rotated(const double *r, const double *p, int n, double *y) {
  double acc = 0;
  for (int k = 0; k < n; k++) {
    double q[3];
    rotate(r + 3 * k, p + 3 * k, q);
    acc += q[0] / q[2] + q[1] * q[1];
  }
  *y = acc;
}

// A local array written again by every iteration: its values must be
// taped per iteration, not read back after the loop.
void scoped(const double *x, int n, double *y) {
  double acc = 0;
  for (int k = 0; k < n; k++) {
    double s[3];
    for (int i = 0; i < 3; i++)
      s[i] = sin(x[k] * (i + 1)) * cos(x[k] * (i + 1));
    for (int i = 0; i < 3; i++)
      acc += s[i] * s[(i + 1) % 3] * x[k];
  }
  *y = acc;
}

enum { N = 4 };

static double evalRotated(const double *r, const double *p) {
  double y;
  rotated(r, p, N, &y);
  return y;
}

static double evalScoped(const double *x) {
  double y;
  scoped(x, N, &y);
  return y;
}

int main(void) {
  double r[3 * N], p[3 * N], x[N];
  for (int i = 0; i < 3 * N; i++) {
    r[i] = 0.3 + 0.17 * i - 0.05 * (i % 4);
    p[i] = 1.0 + 0.23 * i;
  }
  for (int i = 0; i < N; i++)
    x[i] = 0.4 + 0.31 * i;
  const double h = 1e-6;
  char what[64];

  // Reverse: gradients w.r.t. the angles and the points.
  double dr[3 * N] = {0}, dp[3 * N] = {0}, y, dy = 1;
  __enzyme_autodiff((void *)rotated, enzyme_dup, r, dr, enzyme_dup, p, dp,
                    enzyme_const, N, enzyme_dupnoneed, &y, &dy);
  for (int i = 0; i < 3 * N; i++) {
    double r0 = r[i];
    r[i] = r0 + h;
    double fp = evalRotated(r, p);
    r[i] = r0 - h;
    double fm = evalRotated(r, p);
    r[i] = r0;
    snprintf(what, sizeof what, "rotated reverse d/dr[%d]", i);
    check_close(what, dr[i], (fp - fm) / (2 * h), 1e-6);
    double p0 = p[i];
    p[i] = p0 + h;
    fp = evalRotated(r, p);
    p[i] = p0 - h;
    fm = evalRotated(r, p);
    p[i] = p0;
    snprintf(what, sizeof what, "rotated reverse d/dp[%d]", i);
    check_close(what, dp[i], (fp - fm) / (2 * h), 1e-6);
  }

  // Forward: the tangent along one direction of the angles.
  double tr[3 * N], tp[3 * N] = {0}, ty = 0, fd;
  for (int i = 0; i < 3 * N; i++)
    tr[i] = 0.1 * (i % 5) - 0.2;
  {
    double rp[3 * N], rm[3 * N];
    for (int i = 0; i < 3 * N; i++) {
      rp[i] = r[i] + h * tr[i];
      rm[i] = r[i] - h * tr[i];
    }
    fd = (evalRotated(rp, p) - evalRotated(rm, p)) / (2 * h);
  }
  __enzyme_fwddiff((void *)rotated, enzyme_dup, r, tr, enzyme_dup, p, tp,
                   enzyme_const, N, enzyme_dup, &y, &ty);
  check_close("rotated forward along tr", ty, fd, 1e-6);

  // Reverse and forward of the loop whose local array each iteration
  // writes again.
  double dx[N] = {0};
  dy = 1;
  __enzyme_autodiff((void *)scoped, enzyme_dup, x, dx, enzyme_const, N,
                    enzyme_dupnoneed, &y, &dy);
  for (int i = 0; i < N; i++) {
    double x0 = x[i];
    x[i] = x0 + h;
    double fp = evalScoped(x);
    x[i] = x0 - h;
    double fm = evalScoped(x);
    x[i] = x0;
    snprintf(what, sizeof what, "scoped reverse d/dx[%d]", i);
    check_close(what, dx[i], (fp - fm) / (2 * h), 1e-6);
  }

  // Two tangents at once (batch width 2): unit directions 0 and 2.
  double t0[N] = {1, 0, 0, 0}, t1[N] = {0, 0, 1, 0}, yt[2] = {0, 0};
  __enzyme_fwddiff((void *)scoped, enzyme_width, 2, enzyme_dup, x, t0, t1,
                   enzyme_const, N, enzyme_dup, &y, &yt[0], &yt[1]);
  check_close("scoped batch lane 0", yt[0], dx[0], 1e-9);
  check_close("scoped batch lane 1", yt[1], dx[2], 1e-9);
  return check_report();
}
