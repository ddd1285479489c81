// A whole Hessian in one call: batched forward mode (width 4, identity
// directions) over a function that calls reverse mode for its gradient
// (forward over reverse; the inner request is resolved first). Against
// central finite differences of the gradient and the analytic Hessian, and
// symmetric.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <string.h>

extern int enzyme_width, enzyme_dup, enzyme_dupv;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

enum { N = 4 };

/* f = sum_i sin(x_i) x_{i+1}^2 + exp(x_0 x_3) */
double f(const double *x) {
  double s = exp(x[0] * x[3]);
  for (int i = 0; i + 1 < N; i++)
    s += sin(x[i]) * x[i + 1] * x[i + 1];
  return s;
}

void grad(const double *x, double *g) {
  memset(g, 0, N * sizeof *g);
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
}

static double hess(const double *x, int i, int j) {
  double h = 0;
  double e = exp(x[0] * x[3]);
  if ((i == 0 && j == 3) || (i == 3 && j == 0))
    h += e + x[0] * x[3] * e;
  if (i == 0 && j == 0)
    h += x[3] * x[3] * e;
  if (i == 3 && j == 3)
    h += x[0] * x[0] * e;
  for (int k = 0; k + 1 < N; k++) {
    /* sin(x_k) x_{k+1}^2 */
    if (i == k && j == k)
      h += -sin(x[k]) * x[k + 1] * x[k + 1];
    if ((i == k && j == k + 1) || (i == k + 1 && j == k))
      h += 2 * cos(x[k]) * x[k + 1];
    if (i == k + 1 && j == k + 1)
      h += 2 * sin(x[k]);
  }
  return h;
}

int main(void) {
  double x[N] = {0.3, 0.7, -0.4, 1.1}, g[N];
  double dirs[N][N] = {{0}}, H[N][N];
  for (int k = 0; k < N; k++)
    dirs[k][k] = 1;
  __enzyme_fwddiff((void *)grad, enzyme_width, N, enzyme_dupv, sizeof dirs[0],
                   x, dirs[0], enzyme_dup, g, H[0], H[1], H[2], H[3]);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double xp[N], xm[N], gp[N], gm[N], h = 1e-6;
      memcpy(xp, x, sizeof x), memcpy(xm, x, sizeof x);
      xp[j] += h, xm[j] -= h;
      grad(xp, gp), grad(xm, gm);
      char label[64];
      snprintf(label, sizeof label, "H[%d][%d] vs analytic", i, j);
      check_close(label, H[j][i], hess(x, i, j), 1e-12);
      snprintf(label, sizeof label, "H[%d][%d] vs finite difference", i, j);
      check_close(label, H[j][i], (gp[i] - gm[i]) / (2 * h), 1e-6);
      snprintf(label, sizeof label, "H[%d][%d] symmetric", i, j);
      check_close(label, H[i][j], H[j][i], 1e-12);
    }
  return check_report();
}
