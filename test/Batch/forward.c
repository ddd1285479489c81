// Batched forward mode (enzyme_width N) on the dot, matvec and heat kernels:
// every lane must equal a scalar forward sweep in the same direction and a
// central finite difference along that direction. Directions are passed as
// N shadow pointers (enzyme_dup), as a strided block (enzyme_dupv), and for
// active scalars as N tangent values. Widths 1, 2, 3, 4 and 8.
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
    enzyme_const;
typedef struct { double d[1]; } D1;
typedef struct { double d[2]; } D2;
typedef struct { double d[3]; } D3;
typedef struct { double d[4]; } D4;
typedef struct { double d[8]; } D8;
double __enzyme_fwddiff(void *, ...);
D1 __enzyme_fwddiff_1(void *, ...);
D2 __enzyme_fwddiff_2(void *, ...);
D3 __enzyme_fwddiff_3(void *, ...);
D4 __enzyme_fwddiff_4(void *, ...);
D8 __enzyme_fwddiff_8(void *, ...);
void __enzyme_fwddiff_v(void *, ...);

#include "../Integration/Inputs/gradcheck.h"

#define N 6
#define H 1e-6
#define TOL 1e-6
#define SAME 1e-12

/* ---- Kernels ------------------------------------------------------------ */

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

/* ---- dot_nl ------------------------------------------------------------- */

static double xa[N], ya[N];
static double dot_along(const double *vx, const double *vy, double h) {
  double x[N], y[N];
  for (int i = 0; i < N; i++)
    x[i] = xa[i] + h * vx[i], y[i] = ya[i] + h * vy[i];
  return dot_nl(x, y, N);
}
static void check_dot_lane(const char *how, int w, int k, double got,
                           const double *vx, const double *vy) {
  double scalar = __enzyme_fwddiff((void *)dot_nl, enzyme_dup, xa, vx,
                                   enzyme_dup, ya, vy, enzyme_const, N);
  double fd = (dot_along(vx, vy, H) - dot_along(vx, vy, -H)) / (2 * H);
  check_close(LABEL("dot %s width %d lane %d vs scalar sweep", how, w, k), got,
              scalar, SAME);
  check_close(LABEL("dot %s width %d lane %d vs finite difference", how, w, k),
              got, fd, TOL);
}

static void test_dot(void) {
  fill(xa, N, -1, 1, 1);
  fill(ya, N, -1, 1, 2);
  double vx[8][N], vy[8][N];
  for (int k = 0; k < 8; k++) {
    fill(vx[k], N, -1, 1, 10 + k);
    fill(vy[k], N, -1, 1, 30 + k);
  }
  D1 r1 = __enzyme_fwddiff_1((void *)dot_nl, enzyme_width, 1, enzyme_dup, xa,
                             vx[0], enzyme_dup, ya, vy[0], enzyme_const, N);
  check_dot_lane("dup", 1, 0, r1.d[0], vx[0], vy[0]);
  D2 r2 = __enzyme_fwddiff_2((void *)dot_nl, enzyme_width, 2, enzyme_dup, xa,
                             vx[0], vx[1], enzyme_dup, ya, vy[0], vy[1],
                             enzyme_const, N);
  for (int k = 0; k < 2; k++)
    check_dot_lane("dup", 2, k, r2.d[k], vx[k], vy[k]);
  D3 r3 = __enzyme_fwddiff_3((void *)dot_nl, enzyme_width, 3, enzyme_dup, xa,
                             vx[0], vx[1], vx[2], enzyme_dup, ya, vy[0], vy[1],
                             vy[2], enzyme_const, N);
  for (int k = 0; k < 3; k++)
    check_dot_lane("dup", 3, k, r3.d[k], vx[k], vy[k]);
  D4 r4 = __enzyme_fwddiff_4((void *)dot_nl, enzyme_width, 4, enzyme_dupv,
                             sizeof vx[0], xa, vx[0], enzyme_dupv, sizeof vy[0],
                             ya, vy[0], enzyme_const, N);
  for (int k = 0; k < 4; k++)
    check_dot_lane("dupv", 4, k, r4.d[k], vx[k], vy[k]);
  D8 r8 = __enzyme_fwddiff_8((void *)dot_nl, enzyme_width, 8, enzyme_dupv,
                             sizeof vx[0], xa, vx[0], enzyme_dupnoneedv,
                             sizeof vy[0], ya, vy[0], enzyme_const, N);
  for (int k = 0; k < 8; k++)
    check_dot_lane("dupv/dupnoneedv", 8, k, r8.d[k], vx[k], vy[k]);
}

/* ---- matvec: the tangents of y are written to the output shadows ------- */

static void test_matvec(void) {
  double A[N * N], x[N], y[N];
  fill(A, N * N, -0.5, 0.5, 3);
  fill(x, N, -1, 1, 4);
  /* Lane k: direction e_k in x and a k-dependent direction in A. */
  enum { W = 4 };
  double dA[W][N * N], dx[W][N], dy[W][N];
  for (int k = 0; k < W; k++) {
    fill(dA[k], N * N, -0.1, 0.1, 40 + k);
    memset(dx[k], 0, sizeof dx[k]);
    dx[k][k] = 1;
  }
  __enzyme_fwddiff_v((void *)matvec, enzyme_width, W, enzyme_dupv, sizeof dA[0],
                     A, dA[0], enzyme_dup, x, dx[0], dx[1], dx[2], dx[3],
                     enzyme_dupv, sizeof dy[0], y, dy[0], enzyme_const, N);
  for (int k = 0; k < W; k++) {
    double sdy[N];
    __enzyme_fwddiff_v((void *)matvec, enzyme_dup, A, dA[k], enzyme_dup, x,
                       dx[k], enzyme_dup, y, sdy, enzyme_const, N);
    for (int i = 0; i < N; i++) {
      /* Analytic: dy_i = (1 - y_i^2) (sum_j dA_ij x_j + A_ik). */
      double s = 0, t = 0;
      for (int j = 0; j < N; j++)
        s += A[i * N + j] * x[j], t += dA[k][i * N + j] * x[j];
      double th = tanh(s);
      double want = (1 - th * th) * (t + A[i * N + k]);
      check_close(LABEL("matvec lane %d dy[%d] vs analytic", k, i), dy[k][i],
                  want, 1e-12);
      check_close(LABEL("matvec lane %d dy[%d] vs scalar sweep", k, i),
                  dy[k][i], sdy[i], SAME);
    }
  }
}

/* ---- heat: an array and an active scalar with N tangent values --------- */

#define NH 12
#define STEPS 100
static double u0[NH], r0 = 0.2;
static double heat_along(const double *vu, double vr, double h) {
  double u[NH];
  for (int i = 0; i < NH; i++)
    u[i] = u0[i] + h * vu[i];
  return heat(u, NH, STEPS, r0 + h * vr);
}

static void test_heat(void) {
  fill(u0, NH, 0, 1, 5);
  enum { W = 3 };
  double vu[W][NH], vr[W] = {0.0, 1.0, -0.5};
  for (int k = 0; k < W; k++)
    fill(vu[k], NH, -1, 1, 50 + k);
  vu[1][3] = 0; /* lanes differ in every respect */
  double u[NH], du[W][NH];
  memcpy(u, u0, sizeof u);
  memcpy(du, vu, sizeof du);
  D3 t = __enzyme_fwddiff_3((void *)heat, enzyme_width, W, enzyme_dup, u,
                            du[0], du[1], du[2], enzyme_const, NH, enzyme_const,
                            STEPS, r0, vr[0], vr[1], vr[2]);
  for (int k = 0; k < W; k++) {
    double su[NH], sdu[NH];
    memcpy(su, u0, sizeof su);
    memcpy(sdu, vu[k], sizeof sdu);
    double scalar = __enzyme_fwddiff((void *)heat, enzyme_dup, su, sdu,
                                     enzyme_const, NH, enzyme_const, STEPS, r0,
                                     vr[k]);
    double fd = (heat_along(vu[k], vr[k], H) - heat_along(vu[k], vr[k], -H)) /
                (2 * H);
    check_close(LABEL("heat lane %d vs scalar sweep", k), t.d[k], scalar,
                SAME);
    check_close(LABEL("heat lane %d vs finite difference", k), t.d[k], fd,
                TOL);
    for (int i = 0; i < NH; i++)
      check_close(LABEL("heat lane %d final du[%d] vs scalar sweep", k, i),
                  du[k][i], sdu[i], SAME);
  }
  /* The primal ran once, in place, as without AD. */
  double ref[NH];
  memcpy(ref, u0, sizeof ref);
  heat(ref, NH, STEPS, r0);
  for (int i = 0; i < NH; i++)
    check_close(LABEL("heat primal u[%d]", i), u[i], ref[i], 0);
}

int main(void) {
  test_dot();
  test_matvec();
  test_heat();
  return check_report();
}
