// Dot product and matrix-vector products through enzyme_dup arrays, in
// reverse and forward mode, against central finite differences. The output
// array of a void matvec is seeded: in reverse mode its shadow holds the seed
// on entry and is consumed (zeroed) because the function overwrote it; with
// y += A x the seed is kept (it is also the adjoint of y's old contents).
// Reverse-mode shadows of inputs accumulate (checked by calling twice);
// enzyme_dupnoneed and enzyme_const arrays in both modes.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_autodiff_d(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_v(void *, ...);

#include "Inputs/gradcheck.h"

/* ---- Dot product --------------------------------------------------------- */

double dot(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

#define DN 7
static double dot_eval(const double *p) {
  double *x = copy_of(p, DN), *y = copy_of(p + DN, DN);
  double r = dot(x, y, DN);
  free(x);
  free(y);
  return r;
}
static void dot_grad(const double *p, double *g) {
  double *x = copy_of(p, DN), *y = copy_of(p + DN, DN);
  __enzyme_autodiff((void *)dot, enzyme_dup, x, g, enzyme_dup, y, g + DN,
                    enzyme_const, DN);
  free(x);
  free(y);
}
static double dot_tangent(const double *p, int j) {
  double *x = copy_of(p, DN), *y = copy_of(p + DN, DN);
  double *tx = unit_slice(j, 0, DN), *ty = unit_slice(j, DN, DN);
  double t = __enzyme_fwddiff((void *)dot, enzyme_dup, x, tx, enzyme_dup, y, ty,
                              enzyme_const, DN);
  free(x), free(y), free(tx), free(ty);
  return t;
}

/* A smooth nonlinear reduction of two arrays. */
double dot_nl(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sin(x[i]) * exp(0.5 * y[i]) + x[i] * x[i] * y[(i + 1) % n];
  return s;
}
static double dotnl_eval(const double *p) {
  double *x = copy_of(p, DN), *y = copy_of(p + DN, DN);
  double r = dot_nl(x, y, DN);
  free(x);
  free(y);
  return r;
}
static void dotnl_grad(const double *p, double *g) {
  double *x = copy_of(p, DN), *y = copy_of(p + DN, DN);
  __enzyme_autodiff((void *)dot_nl, enzyme_dup, x, g, enzyme_dup, y, g + DN,
                    enzyme_const, DN);
  free(x);
  free(y);
}
static double dotnl_tangent(const double *p, int j) {
  double *x = copy_of(p, DN), *y = copy_of(p + DN, DN);
  double *tx = unit_slice(j, 0, DN), *ty = unit_slice(j, DN, DN);
  double t = __enzyme_fwddiff((void *)dot_nl, enzyme_dup, x, tx, enzyme_dup, y,
                              ty, enzyme_const, DN);
  free(x), free(y), free(tx), free(ty);
  return t;
}

static void dot_extra(const double *p) {
  /* y constant: only dx, equal to y. */
  double x[DN], y[DN], dx[DN] = {0};
  memcpy(x, p, sizeof x);
  memcpy(y, p + DN, sizeof y);
  __enzyme_autodiff((void *)dot, enzyme_dup, x, dx, enzyme_const, y,
                    enzyme_const, DN);
  for (int i = 0; i < DN; i++)
    check_close(LABEL("dot, y const: dx[%d]", i), dx[i], y[i], 1e-15);
  /* Shadows accumulate: a second call adds the gradient again, on top of
     a non-zero initial value. */
  for (int i = 0; i < DN; i++)
    dx[i] = 0.5 * i;
  double dy[DN] = {0};
  __enzyme_autodiff((void *)dot, enzyme_dup, x, dx, enzyme_dup, y, dy,
                    enzyme_const, DN);
  __enzyme_autodiff((void *)dot, enzyme_dup, x, dx, enzyme_dup, y, dy,
                    enzyme_const, DN);
  for (int i = 0; i < DN; i++) {
    check_close(LABEL("dot, accumulated twice: dx[%d]", i), dx[i],
                0.5 * i + 2 * y[i], 1e-15);
    check_close(LABEL("dot, accumulated twice: dy[%d]", i), dy[i], 2 * x[i],
                1e-15);
  }
  /* Forward mode along an arbitrary direction is linear in the tangents. */
  double tx[DN], ty[DN], want = 0;
  for (int i = 0; i < DN; i++) {
    tx[i] = 0.3 * i - 1;
    ty[i] = 1.0 / (i + 1);
    want += tx[i] * y[i] + x[i] * ty[i];
  }
  check_close("dot, forward along (tx, ty)",
              __enzyme_fwddiff((void *)dot, enzyme_dup, x, tx, enzyme_dup, y,
                               ty, enzyme_const, DN),
              want, 1e-14);
}

/* ---- Matrix-vector products ---------------------------------------------- */

#define M 4
#define N 5
#define NA (M * N)
/* p = [A (M*N, row-major), x (N), y_in (M)] */
#define NP (NA + N + M)

/* y = A x written into an output array; the loss is |y|^2. */
double matvec_sumsq(const double *A, const double *x, double *y, int m, int n) {
  double s = 0;
  for (int i = 0; i < m; i++) {
    y[i] = 0;
    for (int j = 0; j < n; j++)
      y[i] += A[i * n + j] * x[j];
    s += y[i] * y[i];
  }
  return s;
}
static double mvsq_eval(const double *p) {
  double *A = copy_of(p, NA), *x = copy_of(p + NA, N),
         *y = copy_of(p + NA + N, M);
  double r = matvec_sumsq(A, x, y, M, N);
  free(A), free(x), free(y);
  return r;
}
static void mvsq_grad(const double *p, double *g) {
  double *A = copy_of(p, NA), *x = copy_of(p + NA, N),
         *y = copy_of(p + NA + N, M);
  /* g + NA + N is y's shadow: zero on entry (no seed for y's final
     contents), and since y's initial contents are never read, zero after. */
  __enzyme_autodiff((void *)matvec_sumsq, enzyme_dup, A, g, enzyme_dup, x,
                    g + NA, enzyme_dup, y, g + NA + N, enzyme_const, M,
                    enzyme_const, N);
  free(A), free(x), free(y);
}
static double mvsq_tangent(const double *p, int j) {
  double *A = copy_of(p, NA), *x = copy_of(p + NA, N),
         *y = copy_of(p + NA + N, M);
  double *tA = unit_slice(j, 0, NA), *tx = unit_slice(j, NA, N),
         *ty = unit_slice(j, NA + N, M);
  double t =
      __enzyme_fwddiff((void *)matvec_sumsq, enzyme_dup, A, tA, enzyme_dup, x,
                       tx, enzyme_dup, y, ty, enzyme_const, M, enzyme_const, N);
  free(A), free(x), free(y), free(tA), free(tx), free(ty);
  return t;
}

/* The same with y in a local variable-length array. */
double matvec_sumsq_vla(const double *A, const double *x, int m, int n) {
  double y[m];
  double s = 0;
  for (int i = 0; i < m; i++) {
    y[i] = 0;
    for (int j = 0; j < n; j++)
      y[i] += A[i * n + j] * x[j];
  }
  for (int i = 0; i < m; i++)
    s += y[i] * y[i];
  return s;
}
static double mvvla_eval(const double *p) {
  double *A = copy_of(p, NA), *x = copy_of(p + NA, N);
  double r = matvec_sumsq_vla(A, x, M, N);
  free(A), free(x);
  return r;
}
static void mvvla_grad(const double *p, double *g) {
  double *A = copy_of(p, NA), *x = copy_of(p + NA, N);
  __enzyme_autodiff((void *)matvec_sumsq_vla, enzyme_dup, A, g, enzyme_dup, x,
                    g + NA, enzyme_const, M, enzyme_const, N);
  free(A), free(x);
}
static double mvvla_tangent(const double *p, int j) {
  double *A = copy_of(p, NA), *x = copy_of(p + NA, N);
  double *tA = unit_slice(j, 0, NA), *tx = unit_slice(j, NA, N);
  double t =
      __enzyme_fwddiff((void *)matvec_sumsq_vla, enzyme_dup, A, tA, enzyme_dup,
                       x, tx, enzyme_const, M, enzyme_const, N);
  free(A), free(x), free(tA), free(tx);
  return t;
}

/* y = A x, void, result through the output pointer. The scalar checked is
   seed . y, so the gradient is the vector-Jacobian product with the seed. */
static const double seed[M] = {0.7, -1.3, 2.1, 0.4};
static double seed_dot(const double *y) {
  double s = 0;
  for (int i = 0; i < M; i++)
    s += seed[i] * y[i];
  return s;
}

void matvec(const double *A, const double *x, double *y, int m, int n) {
  for (int i = 0; i < m; i++) {
    double s = 0;
    for (int j = 0; j < n; j++)
      s += A[i * n + j] * x[j];
    y[i] = s;
  }
}
/* y += A x */
void matvec_acc(const double *A, const double *x, double *y, int m, int n) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      y[i] += A[i * n + j] * x[j];
}

#define SEEDED_MATVEC(F)                                                       \
  static double F##_eval(const double *p) {                                    \
    double *A = copy_of(p, NA), *x = copy_of(p + NA, N),                       \
           *y = copy_of(p + NA + N, M);                                        \
    F(A, x, y, M, N);                                                          \
    double r = seed_dot(y);                                                    \
    free(A), free(x), free(y);                                                 \
    return r;                                                                  \
  }                                                                            \
  static void F##_grad(const double *p, double *g) {                           \
    double *A = copy_of(p, NA), *x = copy_of(p + NA, N),                       \
           *y = copy_of(p + NA + N, M), *yp = copy_of(p + NA + N, M);          \
    double *dy = g + NA + N;                                                   \
    memcpy(dy, seed, sizeof seed); /* the seed of y's final contents */        \
    __enzyme_autodiff((void *)F, enzyme_dup, A, g, enzyme_dup, x, g + NA,      \
                      enzyme_dup, y, dy, enzyme_const, M, enzyme_const, N);    \
    /* dy now holds the adjoint of y's initial contents. */                    \
    F(A, x, yp, M, N);                                                         \
    for (int i = 0; i < M; i++)                                                \
      check_close(LABEL(#F ": reverse mode computes the primal y[%d]", i),     \
                  y[i], yp[i], 1e-15);                                         \
    free(A), free(x), free(y), free(yp);                                       \
  }                                                                            \
  static double F##_tangent(const double *p, int j) {                          \
    double *A = copy_of(p, NA), *x = copy_of(p + NA, N),                       \
           *y = copy_of(p + NA + N, M);                                        \
    double *tA = unit_slice(j, 0, NA), *tx = unit_slice(j, NA, N),             \
           *ty = unit_slice(j, NA + N, M);                                     \
    __enzyme_fwddiff_v((void *)F, enzyme_dup, A, tA, enzyme_dup, x, tx,        \
                       enzyme_dup, y, ty, enzyme_const, M, enzyme_const, N);   \
    double t = seed_dot(ty);                                                   \
    free(A), free(x), free(y), free(tA), free(tx), free(ty);                   \
    return t;                                                                  \
  }
SEEDED_MATVEC(matvec)
SEEDED_MATVEC(matvec_acc)

static void matvec_seed_semantics(const double *p) {
  double A[NA], x[N], y[M], dA[NA] = {0}, dx[N] = {0}, dy[M];
  memcpy(A, p, sizeof A);
  memcpy(x, p + NA, sizeof x);
  memcpy(y, p + NA + N, sizeof y);
  memcpy(dy, seed, sizeof dy);
  __enzyme_autodiff((void *)matvec, enzyme_dup, A, dA, enzyme_dup, x, dx,
                    enzyme_dup, y, dy, enzyme_const, M, enzyme_const, N);
  for (int i = 0; i < M; i++)
    check_close(LABEL("matvec: output shadow consumed, dy[%d]", i), dy[i], 0,
                0);
  for (int j = 0; j < N; j++) {
    double w = 0; /* A^T seed */
    for (int i = 0; i < M; i++)
      w += A[i * N + j] * seed[i];
    check_close(LABEL("matvec: dx[%d] = (A^T seed)[%d]", j, j), dx[j], w,
                1e-14);
  }
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      check_close(LABEL("matvec: dA[%d][%d] = seed[%d] x[%d]", i, j, i, j),
                  dA[i * N + j], seed[i] * x[j], 1e-14);
  /* enzyme_dupnoneed for the output: the same adjoints (the primal y need
     not be computed, so its contents are not checked). */
  double dA2[NA] = {0}, dx2[N] = {0};
  memcpy(dy, seed, sizeof dy);
  __enzyme_autodiff((void *)matvec, enzyme_dup, A, dA2, enzyme_dup, x, dx2,
                    enzyme_dupnoneed, y, dy, enzyme_const, M, enzyme_const, N);
  for (int j = 0; j < N; j++)
    check_close(LABEL("matvec, dupnoneed y: dx[%d]", j), dx2[j], dx[j], 1e-15);
  for (int k = 0; k < NA; k++)
    check_close(LABEL("matvec, dupnoneed y: dA[%d]", k), dA2[k], dA[k], 1e-15);
  for (int i = 0; i < M; i++)
    check_close(LABEL("matvec, dupnoneed y: dy[%d] consumed", i), dy[i], 0, 0);
  /* forward, dupnoneed y, tangent along x only: ty = A tx */
  double tx[N], ty[M];
  for (int j = 0; j < N; j++)
    tx[j] = 1.0 / (j + 1);
  __enzyme_fwddiff_v((void *)matvec, enzyme_const, A, enzyme_dup, x, tx,
                     enzyme_dupnoneed, y, ty, enzyme_const, M, enzyme_const, N);
  for (int i = 0; i < M; i++) {
    double w = 0;
    for (int j = 0; j < N; j++)
      w += A[i * N + j] * tx[j];
    check_close(LABEL("matvec forward, dupnoneed y, const A: ty[%d]", i), ty[i],
                w, 1e-14);
  }
  /* y += A x keeps its seed. */
  memcpy(dy, seed, sizeof dy);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)matvec_acc, enzyme_dup, A, dA, enzyme_dup, x, dx,
                    enzyme_dup, y, dy, enzyme_const, M, enzyme_const, N);
  for (int i = 0; i < M; i++)
    check_close(LABEL("matvec_acc: output shadow keeps the seed, dy[%d]", i),
                dy[i], seed[i], 0);
}

int main(void) {
  double p[NP];
  fill(p, 2 * DN, -1.5, 1.5, 1);
  compare("dot", 2 * DN, p, dot_eval, dot_grad, dot_tangent);
  compare("dot_nl", 2 * DN, p, dotnl_eval, dotnl_grad, dotnl_tangent);
  dot_extra(p);

  fill(p, NP, -1.0, 1.0, 2);
  compare("matvec_sumsq", NP, p, mvsq_eval, mvsq_grad, mvsq_tangent);
  compare("matvec_sumsq_vla", NA + N, p, mvvla_eval, mvvla_grad, mvvla_tangent);
  compare("matvec (seeded output)", NP, p, matvec_eval, matvec_grad,
          matvec_tangent);
  compare("matvec_acc (seeded output, y += A x)", NP, p, matvec_acc_eval,
          matvec_acc_grad, matvec_acc_tangent);
  matvec_seed_semantics(p);
  return check_report();
}
