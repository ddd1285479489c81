// OpenMP parallel loops in reverse and forward mode, run with 1, 2 and 4
// threads, against analytic derivatives and central finite differences: a
// map (each thread writes its own elements), a sum-of-squares reduction, a
// three-point stencil (neighbouring threads read the same x[i], so their
// adjoints meet in dx), a firstprivate scalar, a dynamic schedule, and a
// call to a function the loop body does not inline.
// RUN: %clang -O0 -fopenmp %s -lm -o %t0
// RUN: env OMP_NUM_THREADS=1 %t0 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 %t0 | FileCheck %s
// RUN: env OMP_NUM_THREADS=4 %t0 | FileCheck %s
// RUN: %clang -O1 -fopenmp %s -lm -o %t1 && env OMP_NUM_THREADS=2 %t1 | FileCheck %s
// RUN: %clang -O2 -fopenmp %s -lm -o %t2
// RUN: env OMP_NUM_THREADS=1 %t2 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 %t2 | FileCheck %s
// RUN: env OMP_NUM_THREADS=4 %t2 | FileCheck %s
// RUN: %clang -O3 -fopenmp %s -lm -o %t3 && env OMP_NUM_THREADS=4 %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <omp.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#define N 103

/* y[i] = a sin(x[i]) x[i] */
void map(const double *x, double *y, int n, double a) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = a * sin(x[i]) * x[i];
}

double sumsq(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

/* y[i] = x[i-1] x[i] + sin(x[i+1]) for interior i */
void stencil(const double *x, double *y, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 1; i < n - 1; i++)
    y[i] = x[i - 1] * x[i] + sin(x[i + 1]);
}

/* firstprivate copy of a, dynamic schedule in chunks of 3 */
void scale_dynamic(const double *x, double *y, int n, double a) {
#pragma omp parallel for schedule(dynamic, 3) firstprivate(a)
  for (int i = 0; i < n; i++) {
    y[i] = a * x[i] * x[i];
    a = a + 0.0; /* writes its private copy */
  }
}

__attribute__((noinline)) static double g(double v) { return v * exp(-v); }

double sum_g(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(guided)
  for (int i = 0; i < n; i++)
    s += g(x[i]);
  return s;
}

static double x0[N];
static void init(double *x) {
  for (int i = 0; i < N; i++)
    x[i] = 0.3 + 0.01 * i * (i % 7 == 3 ? -1 : 1);
}

int main(void) {
  double x[N], dx[N], y[N], dy[N], seed[N];
  init(x0);
  for (int i = 0; i < N; i++)
    seed[i] = 1.0 + 0.001 * i;
  char name[64];

  /* map, reverse: dx_i = seed_i a (cos x x + sin x), da = sum seed sin x x */
  {
    double a = 1.7;
    init(x);
    for (int i = 0; i < N; i++) dx[i] = 0, dy[i] = seed[i];
    double da = __enzyme_autodiff((void *)map, enzyme_dup, x, dx, enzyme_dup,
                                  y, dy, enzyme_const, N, enzyme_out, a);
    double want = 0;
    for (int i = 0; i < N; i++) {
      double xi = x[i];
      snprintf(name, sizeof name, "map rev dx[%d]", i);
      check_close(name, dx[i], seed[i] * a * (cos(xi) * xi + sin(xi)), 1e-12);
      want += seed[i] * sin(xi) * xi;
    }
    check_close("map rev da", da, want, 1e-12);
    /* forward: tangent of y in direction dx = 1, da = 0 */
    for (int i = 0; i < N; i++) dx[i] = 1, dy[i] = 0;
    __enzyme_fwddiff((void *)map, enzyme_dup, x, dx, enzyme_dup, y, dy,
                     enzyme_const, N, enzyme_const, a);
    for (int i = 0; i < N; i += 7) {
      snprintf(name, sizeof name, "map fwd dy[%d]", i);
      check_close(name, dy[i], a * (cos(x[i]) * x[i] + sin(x[i])), 1e-12);
    }
  }

  /* sum of squares */
  {
    init(x);
    for (int i = 0; i < N; i++) dx[i] = 0;
    __enzyme_autodiff((void *)sumsq, enzyme_dup, x, dx, enzyme_const, N);
    for (int i = 0; i < N; i++) {
      snprintf(name, sizeof name, "sumsq rev dx[%d]", i);
      check_close(name, dx[i], 2 * x[i], 1e-12);
    }
    double dir = 0;
    for (int i = 0; i < N; i++) dx[i] = 0.5 + 0.01 * i, dir += 2 * x[i] * dx[i];
    double t = __enzyme_fwddiff((void *)sumsq, enzyme_dup, x, dx, enzyme_const,
                                N);
    check_close("sumsq fwd", t, dir, 1e-12);
  }

  /* stencil: dx_j = seed_{j+1} x_{j+1} + seed_j x_{j-1} + seed_{j-1} cos x_j */
  {
    init(x);
    for (int i = 0; i < N; i++) dx[i] = 0, dy[i] = seed[i], y[i] = 0;
    __enzyme_autodiff((void *)stencil, enzyme_dup, x, dx, enzyme_dup, y, dy,
                      enzyme_const, N);
    for (int j = 0; j < N; j++) {
      double want = 0;
      if (j + 1 <= N - 2 && j + 1 >= 1) want += seed[j + 1] * x[j + 1];
      if (j >= 1 && j <= N - 2) want += seed[j] * x[j - 1];
      if (j - 1 >= 1 && j - 1 <= N - 2) want += seed[j - 1] * cos(x[j]);
      snprintf(name, sizeof name, "stencil rev dx[%d]", j);
      check_close(name, dx[j], want, 1e-12);
    }
    /* forward against a central difference of y[50] in direction x_49 */
    for (int i = 0; i < N; i++) dx[i] = (i == 49), dy[i] = 0;
    __enzyme_fwddiff((void *)stencil, enzyme_dup, x, dx, enzyme_dup, y, dy,
                     enzyme_const, N);
    double fd = CENTRAL_DIFF((x[49] = t_, stencil(x, y, N), y[50]), x0[49],
                             1e-6);
    x[49] = x0[49];
    check_close("stencil fwd dy[50]/dx[49]", dy[50], fd, 1e-7);
  }

  /* firstprivate, dynamic schedule: da = sum seed x^2 */
  {
    init(x);
    for (int i = 0; i < N; i++) dx[i] = 0, dy[i] = seed[i];
    double a = 0.7;
    double da = __enzyme_autodiff((void *)scale_dynamic, enzyme_dup, x, dx,
                                  enzyme_dup, y, dy, enzyme_const, N,
                                  enzyme_out, a);
    double want = 0;
    for (int i = 0; i < N; i++) {
      want += seed[i] * x[i] * x[i];
      snprintf(name, sizeof name, "dynamic rev dx[%d]", i);
      check_close(name, dx[i], seed[i] * 2 * a * x[i], 1e-12);
    }
    check_close("dynamic rev da", da, want, 1e-12);
    for (int i = 0; i < N; i++) dx[i] = 0, dy[i] = 0;
    __enzyme_fwddiff((void *)scale_dynamic, enzyme_dup, x, dx, enzyme_dup, y,
                     dy, enzyme_const, N, enzyme_dup, a, 1.0);
    check_close("dynamic fwd dy[10]/da", dy[10], x[10] * x[10], 1e-12);
  }

  /* a call the loop does not inline, guided schedule */
  {
    init(x);
    for (int i = 0; i < N; i++) dx[i] = 0;
    __enzyme_autodiff((void *)sum_g, enzyme_dup, x, dx, enzyme_const, N);
    for (int i = 0; i < N; i++) {
      snprintf(name, sizeof name, "call rev dx[%d]", i);
      check_close(name, dx[i], (1 - x[i]) * exp(-x[i]), 1e-12);
    }
    for (int i = 0; i < N; i++) dx[i] = (i == 5);
    double t = __enzyme_fwddiff((void *)sum_g, enzyme_dup, x, dx, enzyme_const,
                                N);
    check_close("call fwd", t, (1 - x[5]) * exp(-x[5]), 1e-12);
  }
  return check_report();
}
