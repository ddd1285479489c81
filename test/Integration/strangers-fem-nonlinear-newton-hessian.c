// A finite-element user's program: a 1-D nonlinear diffusion problem in
// energy form, E(u) = sum_e h/2 k(u_e) ((u_{e+1} - u_e)/h)^2 - h sum_i f_i
// u_i with k(u) = 1 + u^2 evaluated at element midpoints, and homogeneous
// Dirichlet ends. The residual is the gradient of E (__enzyme_autodiff),
// the tangent stiffness its Jacobian, assembled four columns at a time by
// forward mode over the gradient with enzyme_width 4 and enzyme_dupv (each
// lane a unit direction), and Newton's method solves E'(u) = 0 with a
// tridiagonal (Thomas) solve. Expected: the stiffness against central
// finite differences of the gradient, symmetric, tridiagonal, and the
// Newton residuals decreasing quadratically to below 1e-11. (The load and
// the initial guess are not symmetric about the midpoint: with a symmetric
// guess the middle element has u_{e+1} - u_e exactly 0, and the stiffness
// comes out wrong there, strangers-nested-zero-adjoint.c, XFAIL.)
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang_enzyme -O2 %s -S -emit-llvm -o - | lli - | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <string.h>

extern int enzyme_dup, enzyme_dupv, enzyme_dupnoneedv, enzyme_const,
    enzyme_width;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

#define N 12 /* interior nodes */
#define W 4

double energy(const double *u, const double *f, int n) {
  double h = 1.0 / (n + 1), e = 0;
  for (int el = 0; el <= n; el++) {
    double a = el == 0 ? 0 : u[el - 1];
    double b = el == n ? 0 : u[el];
    double m = 0.5 * (a + b), g = (b - a) / h;
    e += 0.5 * h * (1 + m * m) * g * g;
  }
  for (int i = 0; i < n; i++)
    e -= h * f[i] * u[i];
  return e;
}

void residual(const double *u, double *r, const double *f, int n) {
  memset(r, 0, n * sizeof(double));
  __enzyme_autodiff((void *)energy, enzyme_dup, u, r, enzyme_const, f,
                    enzyme_const, n);
}

/* K[i][j] = d r_i / d u_j, W columns per call. */
static void stiffness(const double *u, const double *f, double K[N][N]) {
  for (int c0 = 0; c0 < N; c0 += W) {
    double seeds[W][N], dr[W][N], r[N];
    memset(seeds, 0, sizeof seeds);
    for (int l = 0; l < W && c0 + l < N; l++)
      seeds[l][c0 + l] = 1;
    __enzyme_fwddiff((void *)residual, enzyme_width, W, enzyme_dupv,
                     sizeof seeds[0], u, seeds, enzyme_dupnoneedv,
                     sizeof dr[0], r, dr, enzyme_const, f, enzyme_const, N);
    for (int l = 0; l < W && c0 + l < N; l++)
      for (int i = 0; i < N; i++)
        K[i][c0 + l] = dr[l][i];
  }
}

static void thomas(double K[N][N], double *b) {
  double c[N], d[N];
  for (int i = 0; i < N; i++) {
    double diag = K[i][i] - (i ? K[i][i - 1] * c[i - 1] : 0);
    c[i] = i + 1 < N ? K[i][i + 1] / diag : 0;
    d[i] = (b[i] - (i ? K[i][i - 1] * d[i - 1] : 0)) / diag;
  }
  for (int i = N - 1; i >= 0; i--)
    b[i] = d[i] - (i + 1 < N ? c[i] * b[i + 1] : 0);
}

static double norm(const double *v) {
  double s = 0;
  for (int i = 0; i < N; i++)
    s += v[i] * v[i];
  return sqrt(s);
}

int main(void) {
  double f[N], u[N];
  for (int i = 0; i < N; i++) {
    double x = (i + 1.0) / (N + 1);
    f[i] = 40 * sin(M_PI * x) + 10 + 5 * x;
    u[i] = 0.3 * x * (1 - x) + 0.02 * x;
  }
  static double K[N][N];
  stiffness(u, f, K);
  const double h = 1e-6;
  double worst = 0, asym = 0, offband = 0;
  for (int j = 0; j < N; j++) {
    double up[N], um[N], rp[N], rm[N];
    memcpy(up, u, sizeof up);
    memcpy(um, u, sizeof um);
    up[j] += h;
    um[j] -= h;
    residual(up, rp, f, N);
    residual(um, rm, f, N);
    for (int i = 0; i < N; i++) {
      double fd = (rp[i] - rm[i]) / (2 * h);
      worst = fmax(worst, fabs(K[i][j] - fd) / (1 + fabs(fd)));
      asym = fmax(asym, fabs(K[i][j] - K[j][i]));
      if (i > j + 1 || j > i + 1)
        offband = fmax(offband, fabs(K[i][j]));
    }
  }
  check_close("stiffness vs FD of the residual (worst)", worst, 0, 1e-6);
  check_close("stiffness symmetric", asym, 0, 1e-12);
  check_close("stiffness tridiagonal", offband, 0, 0);

  double prev = 0;
  int quadratic = 1;
  for (int it = 0; it < 15; it++) {
    double r[N];
    residual(u, r, f, N);
    double nr = norm(r);
    printf("Newton %d: |r| = %.3e\n", it, nr);
    if (it >= 2 && prev < 1e-3 && nr > 10 * prev * prev && nr > 1e-13)
      quadratic = 0;
    prev = nr;
    if (nr < 1e-12)
      break;
    stiffness(u, f, K);
    for (int i = 0; i < N; i++)
      r[i] = -r[i];
    thomas(K, r);
    for (int i = 0; i < N; i++)
      u[i] += r[i];
  }
  check_close("Newton converged", prev < 1e-11, 1, 0);
  check_close("Newton quadratic", quadratic, 1, 0);
  return check_report();
}
