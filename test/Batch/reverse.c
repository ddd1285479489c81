// Batched reverse mode (enzyme_width N) on the dot, matvec and heat kernels
// and one that allocates: a scalar return is seeded with 1 in every lane,
// input shadows accumulate lane by lane (each starts from its own values),
// the shadow of overwritten memory holds that lane's seed on entry and is
// consumed, and the adjoints of enzyme_out scalars come back as N values.
// Every lane must equal a scalar reverse sweep with the same seed, and an
// analytic formula or a central finite difference of that lane's objective.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_width, enzyme_dup, enzyme_dupv, enzyme_dupnoneedv,
    enzyme_const, enzyme_out;
typedef struct { double dx[2], dy[2]; } Pair2;
typedef struct { double d[3]; } D3;
void __enzyme_autodiff(void *, ...);
double __enzyme_autodiff_d(void *, ...);
Pair2 __enzyme_autodiff_pair2(void *, ...);
D3 __enzyme_autodiff_3(void *, ...);

#include "../Integration/Inputs/gradcheck.h"

#define N 6
#define H 1e-6
#define TOL 1e-6
#define SAME 1e-12

/* ---- Kernels ------------------------------------------------------------ */

double f2(double x, double y) { return sin(x) * y + x * x * exp(y); }

double dot_nl(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sin(x[i]) * exp(0.5 * y[i]) + x[i] * x[i] * y[(i + 1) % n];
  return s;
}

/* y = tanh(A x) */
void matvec(const double *A, const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < n; j++)
      s += A[i * n + j] * x[j];
    y[i] = tanh(s);
  }
}

/* Reaction-diffusion in place, then a loss; r is an active scalar. */
double heat(double *u, int n, int steps, double r) {
  for (int t = 0; t < steps; t++) {
    double left = u[0];
    for (int i = 1; i < n - 1; i++) {
      double c = u[i];
      u[i] = c + r * (left - 2 * c + u[i + 1]) + 0.01 * sin(c);
      left = c;
    }
  }
  double loss = 0;
  for (int i = 0; i < n; i++)
    loss += cos(u[i]) * (1 + 0.1 * i);
  return loss;
}

/* log-sum-exp through a heap temporary (its shadow is allocated per lane). */
double lse(const double *x, int n) {
  double *e = malloc(n * sizeof *e);
  double s = 0;
  for (int i = 0; i < n; i++)
    e[i] = exp(x[i]);
  for (int i = 0; i < n; i++)
    s += e[i];
  free(e);
  return log(s);
}

/* ---- f2: two enzyme_out scalars, N adjoints each ----------------------- */

static void test_f2(void) {
  double x = 0.7, y = -0.3;
  Pair2 g = __enzyme_autodiff_pair2((void *)f2, enzyme_width, 2, enzyme_out, x,
                                    enzyme_out, y);
  double gx = cos(x) * y + 2 * x * exp(y), gy = sin(x) + x * x * exp(y);
  for (int k = 0; k < 2; k++) {
    check_close(LABEL("f2 lane %d d/dx vs analytic", k), g.dx[k], gx, SAME);
    check_close(LABEL("f2 lane %d d/dy vs analytic", k), g.dy[k], gy, SAME);
  }
}

/* ---- dot_nl: shadows accumulate per lane ------------------------------- */

static void test_dot(void) {
  double x[N], y[N], gx[N], gy[N];
  fill(x, N, -1, 1, 1);
  fill(y, N, -1, 1, 2);
  for (int i = 0; i < N; i++) {
    double xp[N], xm[N], yp[N], ym[N];
    memcpy(xp, x, sizeof x), memcpy(xm, x, sizeof x);
    memcpy(yp, y, sizeof y), memcpy(ym, y, sizeof y);
    xp[i] += H, xm[i] -= H, yp[i] += H, ym[i] -= H;
    gx[i] = (dot_nl(xp, y, N) - dot_nl(xm, y, N)) / (2 * H);
    gy[i] = (dot_nl(x, yp, N) - dot_nl(x, ym, N)) / (2 * H);
  }
  enum { W = 4 };
  double init[W][N], dx[W][N], dy[W][N];
  for (int k = 0; k < W; k++)
    fill(init[k], N, -2, 2, 60 + k);
  memcpy(dx, init, sizeof dx);
  memcpy(dy, init, sizeof dy);
  __enzyme_autodiff((void *)dot_nl, enzyme_width, W, enzyme_dup, x, dx[0],
                    dx[1], dx[2], dx[3], enzyme_dupv, sizeof dy[0], y, dy[0],
                    enzyme_const, N);
  double sx[N] = {0}, sy[N] = {0};
  __enzyme_autodiff((void *)dot_nl, enzyme_dup, x, sx, enzyme_dup, y, sy,
                    enzyme_const, N);
  for (int k = 0; k < W; k++)
    for (int i = 0; i < N; i++) {
      check_close(LABEL("dot lane %d dx[%d] vs finite difference", k, i),
                  dx[k][i] - init[k][i], gx[i], TOL);
      check_close(LABEL("dot lane %d dy[%d] vs finite difference", k, i),
                  dy[k][i] - init[k][i], gy[i], TOL);
      check_close(LABEL("dot lane %d dx[%d] vs scalar sweep", k, i),
                  dx[k][i] - init[k][i], sx[i], SAME);
      check_close(LABEL("dot lane %d dy[%d] vs scalar sweep", k, i),
                  dy[k][i] - init[k][i], sy[i], SAME);
    }
}

/* ---- matvec: each lane's output seed is a different row ---------------- */

static void test_matvec(void) {
  double A[N * N], x[N], y[N];
  fill(A, N * N, -0.5, 0.5, 3);
  fill(x, N, -1, 1, 4);
  enum { W = 3 };
  double dA[W][N * N], dx[W][N], dy[W][N], seed[W][N];
  memset(dA, 0, sizeof dA);
  memset(dx, 0, sizeof dx);
  for (int k = 0; k < W; k++)
    fill(seed[k], N, -1, 1, 70 + k);
  memcpy(dy, seed, sizeof dy);
  __enzyme_autodiff((void *)matvec, enzyme_width, W, enzyme_dupv, sizeof dA[0],
                    A, dA[0], enzyme_dup, x, dx[0], dx[1], dx[2],
                    enzyme_dupnoneedv, sizeof dy[0], y, dy[0], enzyme_const, N);
  for (int k = 0; k < W; k++) {
    double sA[N * N] = {0}, sx[N] = {0}, sy[N], ys[N];
    memcpy(sy, seed[k], sizeof sy);
    __enzyme_autodiff((void *)matvec, enzyme_dup, A, sA, enzyme_dup, x, sx,
                      enzyme_dup, ys, sy, enzyme_const, N);
    /* Analytic: with w = seed_k and d_i = w_i (1 - tanh(A x)_i^2),
       dx_j = sum_i d_i A_ij and dA_ij = d_i x_j. */
    double d[N];
    for (int i = 0; i < N; i++) {
      double s = 0;
      for (int j = 0; j < N; j++)
        s += A[i * N + j] * x[j];
      double th = tanh(s);
      d[i] = seed[k][i] * (1 - th * th);
      check_close(LABEL("matvec lane %d output seed consumed [%d]", k, i),
                  dy[k][i], 0, 0);
    }
    for (int j = 0; j < N; j++) {
      double want = 0;
      for (int i = 0; i < N; i++)
        want += d[i] * A[i * N + j];
      check_close(LABEL("matvec lane %d dx[%d] vs analytic", k, j), dx[k][j],
                  want, 1e-12);
      check_close(LABEL("matvec lane %d dx[%d] vs scalar sweep", k, j),
                  dx[k][j], sx[j], SAME);
    }
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j += 2)
        check_close(LABEL("matvec lane %d dA[%d][%d] vs analytic", k, i, j),
                    dA[k][i * N + j], d[i] * x[j], 1e-12);
  }
}

/* ---- heat: in place, per-lane seeds of the final state, enzyme_out r --- */

#define NH 10
#define STEPS 80
static double u0[NH], w[3][NH];
/* Lane k's objective: loss + w_k . u_final. */
static double heat_obj(int k, const double *u_in, double r) {
  double u[NH];
  memcpy(u, u_in, sizeof u);
  double loss = heat(u, NH, STEPS, r);
  for (int i = 0; i < NH; i++)
    loss += w[k][i] * u[i];
  return loss;
}

static void test_heat(void) {
  enum { W = 3 };
  double r = 0.2;
  fill(u0, NH, 0, 1, 5);
  for (int k = 0; k < W; k++)
    fill(w[k], NH, -1, 1, 80 + k);
  double u[NH], du[W][NH];
  memcpy(u, u0, sizeof u);
  memcpy(du, w, sizeof du);
  D3 dr = __enzyme_autodiff_3((void *)heat, enzyme_width, W, enzyme_dup, u,
                              du[0], du[1], du[2], enzyme_const, NH,
                              enzyme_const, STEPS, enzyme_out, r);
  for (int k = 0; k < W; k++) {
    double su[NH], sdu[NH];
    memcpy(su, u0, sizeof su);
    memcpy(sdu, w[k], sizeof sdu);
    double sdr = __enzyme_autodiff_d((void *)heat, enzyme_dup, su, sdu,
                                     enzyme_const, NH, enzyme_const, STEPS,
                                     enzyme_out, r);
    double fdr = (heat_obj(k, u0, r + H) - heat_obj(k, u0, r - H)) / (2 * H);
    check_close(LABEL("heat lane %d d/dr vs finite difference", k), dr.d[k],
                fdr, TOL);
    check_close(LABEL("heat lane %d d/dr vs scalar sweep", k), dr.d[k], sdr,
                SAME);
    for (int i = 0; i < NH; i++) {
      double up[NH], um[NH];
      memcpy(up, u0, sizeof up), memcpy(um, u0, sizeof um);
      up[i] += H, um[i] -= H;
      double fd = (heat_obj(k, up, r) - heat_obj(k, um, r)) / (2 * H);
      check_close(LABEL("heat lane %d du[%d] vs finite difference", k, i),
                  du[k][i], fd, TOL);
      check_close(LABEL("heat lane %d du[%d] vs scalar sweep", k, i),
                  du[k][i], sdu[i], SAME);
    }
  }
}

/* ---- lse: shadows of a heap temporary ---------------------------------- */

static void test_lse(void) {
  double x[N];
  fill(x, N, -1, 2, 9);
  enum { W = 2 };
  double dx[W][N];
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)lse, enzyme_width, W, enzyme_dupv, sizeof dx[0], x,
                    dx[0], enzyme_const, N);
  double s = 0;
  for (int i = 0; i < N; i++)
    s += exp(x[i]);
  for (int k = 0; k < W; k++)
    for (int i = 0; i < N; i++)
      check_close(LABEL("lse lane %d dx[%d] vs softmax", k, i), dx[k][i],
                  exp(x[i]) / s, 1e-12);
}

int main(void) {
  test_f2();
  test_dot();
  test_matvec();
  test_heat();
  test_lse();
  return check_report();
}
