// A stiff-ODE user's program: backward Euler on the Van der Pol oscillator
// with a large damping mu, each step solving y_{n+1} - h f(y_{n+1}) = y_n
// by Newton's method (a while loop with a data-dependent number of
// iterations), each Newton update solving the 2x2 Jacobian system by
// Gaussian elimination with partial pivoting (a row swap chosen by
// comparing active values). The final state's distance to a target is
// differentiated with respect to mu and the initial state, in reverse mode
// and in batched forward mode (enzyme_width 2, the tangents of mu and of
// y0[0] in one call). Expected: central finite differences of the whole
// solver (the program checks that the perturbed runs take the same Newton
// iterations), and agreement of the two modes.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang_enzyme -O1 %s -S -emit-llvm -o - | lli - | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_width;
typedef struct {
  double dmu;
} MuGrad;
MuGrad __enzyme_autodiff(void *, ...);
typedef struct {
  double d[2];
} Tan2;
Tan2 __enzyme_fwddiff(void *, ...);

static int newton_total;

static void vdp(const double *y, double mu, double *f, double J[2][2]) {
  f[0] = y[1];
  f[1] = mu * (1 - y[0] * y[0]) * y[1] - y[0];
  J[0][0] = 0;
  J[0][1] = 1;
  J[1][0] = -2 * mu * y[0] * y[1] - 1;
  J[1][1] = mu * (1 - y[0] * y[0]);
}

static void solve2(double A[2][2], double *b) {
  if (fabs(A[1][0]) > fabs(A[0][0])) {
    for (int j = 0; j < 2; j++) {
      double t = A[0][j];
      A[0][j] = A[1][j];
      A[1][j] = t;
    }
    double t = b[0];
    b[0] = b[1];
    b[1] = t;
  }
  double m = A[1][0] / A[0][0];
  A[1][1] -= m * A[0][1];
  b[1] -= m * b[0];
  b[1] /= A[1][1];
  b[0] = (b[0] - A[0][1] * b[1]) / A[0][0];
}

double miss(double mu, double *y, int steps, double h) {
  int iters = 0;
  for (int n = 0; n < steps; n++) {
    double yn[2] = {y[0], y[1]};
    double z[2] = {y[0], y[1]};
    double res = 1;
    int k = 0;
    while (res > 1e-13 && k < 50) {
      double f[2], J[2][2], A[2][2], r[2];
      vdp(z, mu, f, J);
      for (int i = 0; i < 2; i++) {
        r[i] = -(z[i] - h * f[i] - yn[i]);
        for (int j = 0; j < 2; j++)
          A[i][j] = (i == j) - h * J[i][j];
      }
      solve2(A, r);
      z[0] += r[0];
      z[1] += r[1];
      res = fabs(r[0]) + fabs(r[1]);
      k++;
    }
    iters += k;
    y[0] = z[0];
    y[1] = z[1];
  }
  newton_total = iters;
  return (y[0] - 1.5) * (y[0] - 1.5) + 0.1 * y[1] * y[1];
}

static double run(double mu, double y00, double y01, int steps, double h) {
  double y[2] = {y00, y01};
  return miss(mu, y, steps, h);
}

int main(void) {
  const double mu = 8.0, h = 0.02;
  const int steps = 60;
  const double y0[2] = {2.0, 0.0};

  run(mu, y0[0], y0[1], steps, h);
  int iters = newton_total;
  printf("%d Newton iterations\n", iters);

  double y[2] = {y0[0], y0[1]}, dy[2] = {0, 0};
  MuGrad g = __enzyme_autodiff((void *)miss, enzyme_out, mu, enzyme_dup, y, dy,
                               enzyme_const, steps, enzyme_const, h);

  double yf[2] = {y0[0], y0[1]};
  double ty[4] = {0, 0, 1, 0}; /* lane 0: d/dmu, lane 1: d/dy0[0] */
  Tan2 t = __enzyme_fwddiff((void *)miss, enzyme_width, 2, mu, 1.0, 0.0,
                            enzyme_dup, yf, &ty[0], &ty[2], enzyme_const,
                            steps, enzyme_const, h);

  const double e = 1e-6;
  int same = 1;
  double p = run(mu + e, y0[0], y0[1], steps, h);
  same &= newton_total == iters;
  double m = run(mu - e, y0[0], y0[1], steps, h);
  same &= newton_total == iters;
  double fd_mu = (p - m) / (2 * e);
  p = run(mu, y0[0] + e, y0[1], steps, h);
  same &= newton_total == iters;
  m = run(mu, y0[0] - e, y0[1], steps, h);
  same &= newton_total == iters;
  double fd_y0 = (p - m) / (2 * e);
  p = run(mu, y0[0], y0[1] + e, steps, h);
  m = run(mu, y0[0], y0[1] - e, steps, h);
  double fd_y1 = (p - m) / (2 * e);

  check_close("perturbed runs iterate alike", same, 1, 0);
  check_close("reverse d/dmu", g.dmu, fd_mu, 1e-5);
  check_close("reverse d/dy0[0]", dy[0], fd_y0, 1e-5);
  check_close("reverse d/dy0[1]", dy[1], fd_y1, 1e-5);
  check_close("forward lane 0 = reverse d/dmu", t.d[0], g.dmu, 1e-10);
  check_close("forward lane 1 = reverse d/dy0[0]", t.d[1], dy[0], 1e-10);
  return check_report();
}
