// A stiff-chemistry user's program: the Jacobian of the Robertson kinetics
// right-hand side, which an implicit integrator needs every step, in one
// batched forward sweep (enzyme_width 3). The three seed directions live in
// one 3x3 block and are passed with enzyme_dupv (a byte stride between
// shadows); the rate tangents come back through enzyme_dupnoneedv. A
// scalar function (the total reaction "activity" sum of squares of rates)
// returns its three tangents in a struct of three doubles. A backward-Euler
// Newton step (I - h J) dy = -(y - y0 - h f) then uses the Jacobian; its
// result is checked to make the residual vanish. Expected: the analytic
// Jacobian of the Robertson system.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang_enzyme -O2 %s -S -emit-llvm -o - | lli - | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_width, enzyme_dupv, enzyme_dupnoneedv, enzyme_const;
typedef struct {
  double d[3];
} Tangents3;
extern void __enzyme_fwddiff(void *, ...);
extern Tangents3 __enzyme_fwddiff_activity(void *, ...);

typedef struct {
  double k1, k2, k3;
} Rates;

void robertson(const double *y, const Rates *k, double *f) {
  double r1 = k->k1 * y[0];
  double r2 = k->k2 * y[1] * y[1];
  double r3 = k->k3 * y[1] * y[2];
  f[0] = -r1 + r3;
  f[1] = r1 - r2 - r3;
  f[2] = r2;
}

double activity(const double *y, const Rates *k) {
  double f[3];
  robertson(y, k, f);
  return f[0] * f[0] + f[1] * f[1] + f[2] * f[2];
}

static void solve3(double A[3][3], double *b) {
  for (int c = 0; c < 3; c++) {
    int p = c;
    for (int r = c + 1; r < 3; r++)
      if (fabs(A[r][c]) > fabs(A[p][c]))
        p = r;
    for (int j = 0; j < 3; j++) {
      double t = A[c][j];
      A[c][j] = A[p][j];
      A[p][j] = t;
    }
    double t = b[c];
    b[c] = b[p];
    b[p] = t;
    for (int r = c + 1; r < 3; r++) {
      double m = A[r][c] / A[c][c];
      for (int j = c; j < 3; j++)
        A[r][j] -= m * A[c][j];
      b[r] -= m * b[c];
    }
  }
  for (int r = 2; r >= 0; r--) {
    for (int j = r + 1; j < 3; j++)
      b[r] -= A[r][j] * b[j];
    b[r] /= A[r][r];
  }
}

int main(void) {
  Rates k = {0.04, 3e7, 1e4};
  double y[3] = {0.9, 3e-5, 0.1};
  /* Seeds: lane j is e_j; shadow j at seeds + j * 3 doubles. */
  double seeds[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  double f[3], df[9] = {0};
  __enzyme_fwddiff((void *)robertson, enzyme_width, 3, enzyme_dupv,
                   3 * sizeof(double), y, seeds, enzyme_const, &k,
                   enzyme_dupnoneedv, 3 * sizeof(double), f, df);
  /* df[j*3 + i] = d f_i / d y_j */
  double J[3][3] = {
      {-k.k1, k.k3 * y[2], k.k3 * y[1]},
      {k.k1, -2 * k.k2 * y[1] - k.k3 * y[2], -k.k3 * y[1]},
      {0, 2 * k.k2 * y[1], 0},
  };
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      char name[32];
      snprintf(name, sizeof name, "J[%d][%d]", i, j);
      check_close(name, df[j * 3 + i], J[i][j], 1e-12);
    }

  Tangents3 da = __enzyme_fwddiff_activity(
      (void *)activity, enzyme_width, 3, enzyme_dupv, 3 * sizeof(double), y,
      seeds, enzyme_const, &k);
  double fy[3];
  robertson(y, &k, fy);
  for (int j = 0; j < 3; j++) {
    double want = 0;
    for (int i = 0; i < 3; i++)
      want += 2 * fy[i] * J[i][j];
    char name[32];
    snprintf(name, sizeof name, "d activity / dy%d", j);
    check_close(name, da.d[j], want, 1e-12);
  }

  /* One Newton step of backward Euler from y0 = y with h = 1e-3, starting
     at the guess y: the linear residual at the new point must vanish. */
  double h = 1e-3, A[3][3], rhs[3];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++)
      A[i][j] = (i == j) - h * df[j * 3 + i];
    rhs[i] = h * fy[i];
  }
  double A0[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      A0[i][j] = A[i][j];
  solve3(A, rhs);
  for (int i = 0; i < 3; i++) {
    double r = -h * fy[i];
    for (int j = 0; j < 3; j++)
      r += A0[i][j] * rhs[j];
    char name[32];
    snprintf(name, sizeof name, "Newton residual %d", i);
    check_close(name, r, 0, 1e-15);
  }
  return check_report();
}
