// A data-fitting user's program: a degree-3 polynomial least-squares fit
// through the normal equations (V^T V) c = V^T y, the Gram matrix built in
// a fixed-size 2-D array, factored by a hand-written Cholesky (sqrt on the
// diagonal) and solved by forward and back substitution. The program
// returns a weighted sum of the coefficients and of the fitted value at a
// point; gradient with respect to the data y (reverse) and the abscissae x
// (reverse), and a forward-mode directional derivative in x.
// Expected: since c = (V^T V)^{-1} V^T y, dL/dy = V (V^T V)^{-1} g with g
// the coefficient weights (computed here by a separate Gauss-Jordan
// inverse); dL/dx by central finite differences.
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

#define NP 9
#define DEG 3
#define NC (DEG + 1)

static void cholesky(double A[NC][NC], double L[NC][NC]) {
  for (int i = 0; i < NC; ++i)
    for (int j = 0; j < NC; ++j)
      L[i][j] = 0.0;
  for (int j = 0; j < NC; ++j) {
    double s = A[j][j];
    for (int k = 0; k < j; ++k)
      s -= L[j][k] * L[j][k];
    L[j][j] = sqrt(s);
    for (int i = j + 1; i < NC; ++i) {
      double t = A[i][j];
      for (int k = 0; k < j; ++k)
        t -= L[i][k] * L[j][k];
      L[i][j] = t / L[j][j];
    }
  }
}

static void fit(const double *x, const double *y, double *c) {
  double G[NC][NC] = {{0}}, b[NC] = {0}, L[NC][NC], z[NC];
  for (int p = 0; p < NP; ++p) {
    double pw[NC];
    pw[0] = 1.0;
    for (int a = 1; a < NC; ++a)
      pw[a] = pw[a - 1] * x[p];
    for (int a = 0; a < NC; ++a) {
      b[a] += pw[a] * y[p];
      for (int bb = 0; bb < NC; ++bb)
        G[a][bb] += pw[a] * pw[bb];
    }
  }
  cholesky(G, L);
  for (int i = 0; i < NC; ++i) {
    double s = b[i];
    for (int k = 0; k < i; ++k)
      s -= L[i][k] * z[k];
    z[i] = s / L[i][i];
  }
  for (int i = NC - 1; i >= 0; --i) {
    double s = z[i];
    for (int k = i + 1; k < NC; ++k)
      s -= L[k][i] * c[k];
    c[i] = s / L[i][i];
  }
}

static const double gw[NC] = {0.5, -1.0, 2.0, 0.25};
static const double xe = 0.8;

double objective(const double *x, const double *y) {
  double c[NC];
  fit(x, y, c);
  double l = 0, v = 0;
  for (int a = NC - 1; a >= 0; --a) {
    l += gw[a] * c[a];
    v = v * xe + c[a];
  }
  return l + v;
}

int main(void) {
  double x[NP], y[NP], dx[NP] = {0}, dy[NP] = {0};
  for (int p = 0; p < NP; ++p) {
    x[p] = -1.0 + 0.25 * p + 0.03 * sin(3.0 * p);
    y[p] = 1.5 * x[p] * x[p] - 0.7 * x[p] + 0.2 + 0.1 * cos(5.0 * p);
  }
  __enzyme_autodiff((void *)objective, enzyme_dup, x, dx, enzyme_dup, y, dy);

  /* dL/dc_a = gw_a + xe^a; dL/dy = V G^{-1} (dL/dc). */
  double G[NC][2 * NC] = {{0}}, V[NP][NC], g[NC], u[NC];
  for (int p = 0; p < NP; ++p) {
    V[p][0] = 1.0;
    for (int a = 1; a < NC; ++a)
      V[p][a] = V[p][a - 1] * x[p];
  }
  for (int a = 0; a < NC; ++a) {
    g[a] = gw[a] + pow(xe, a);
    G[a][NC + a] = 1.0;
    for (int bb = 0; bb < NC; ++bb)
      for (int p = 0; p < NP; ++p)
        G[a][bb] += V[p][a] * V[p][bb];
  }
  for (int col = 0; col < NC; ++col) { /* Gauss-Jordan, SPD: no pivoting */
    double piv = G[col][col];
    for (int j = 0; j < 2 * NC; ++j)
      G[col][j] /= piv;
    for (int r = 0; r < NC; ++r)
      if (r != col) {
        double f = G[r][col];
        for (int j = 0; j < 2 * NC; ++j)
          G[r][j] -= f * G[col][j];
      }
  }
  for (int a = 0; a < NC; ++a) {
    u[a] = 0;
    for (int bb = 0; bb < NC; ++bb)
      u[a] += G[a][NC + bb] * g[bb];
  }
  for (int p = 0; p < NP; ++p) {
    double want = 0;
    for (int a = 0; a < NC; ++a)
      want += V[p][a] * u[a];
    check_close("dL/dy", dy[p], want, 1e-9);
  }
  double dirx[NP], dummy_dy[NP] = {0}, fdd = 0;
  const double h = 1e-6;
  for (int p = 0; p < NP; ++p) {
    double save = x[p];
    x[p] = save + h;
    double lp = objective(x, y);
    x[p] = save - h;
    double lm = objective(x, y);
    x[p] = save;
    double fd = (lp - lm) / (2 * h);
    check_close("dL/dx", dx[p], fd, 1e-6);
    dirx[p] = 0.5 - 0.1 * p;
    fdd += dirx[p] * fd;
  }
  double fwd = __enzyme_fwddiff((void *)objective, enzyme_dup, x, dirx,
                                enzyme_dup, y, dummy_dy);
  check_close("forward dL/dx . dir", fwd, fdd, 1e-6);
  return check_report();
}
