// OpenMP synchronisation inside differentiated parallel regions, with 1, 2
// and 4 threads, against analytic derivatives: a critical section adding
// each thread's partial sum, an atomic update, two loops separated by the
// implicit barrier where the second reads what other threads wrote in the
// first, single and master blocks, and max and product reductions.
// RUN: %clang -O0 -fopenmp %s -lm -o %t0
// RUN: env OMP_NUM_THREADS=1 %t0 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 %t0 | FileCheck %s
// RUN: env OMP_NUM_THREADS=4 %t0 | FileCheck %s
// RUN: %clang -O1 -fopenmp %s -lm -o %t1 && env OMP_NUM_THREADS=3 %t1 | FileCheck %s
// RUN: %clang -O2 -fopenmp %s -lm -o %t2
// RUN: env OMP_NUM_THREADS=2 %t2 | FileCheck %s
// RUN: env OMP_NUM_THREADS=4 %t2 | FileCheck %s
// RUN: %clang -O3 -fopenmp %s -lm -o %t3 && env OMP_NUM_THREADS=4 %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#define N 57

double crit(const double *x, int n) {
  double s = 0;
#pragma omp parallel
  {
    double local = 0;
#pragma omp for
    for (int i = 0; i < n; i++)
      local += x[i] * x[i] * x[i];
#pragma omp critical
    s += local;
  }
  return s;
}

double atom(const double *x, const double *w, int n) {
  double s = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double v = x[i] * w[i];
#pragma omp atomic
    s += v;
  }
  return s;
}

void phases(const double *x, double *tmp, double *y, int n) {
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++)
      tmp[i] = x[i] * x[i];
#pragma omp for
    for (int i = 0; i < n; i++)
      y[i] = tmp[(i + 1) % n] * x[i];
#pragma omp single
    y[0] += tmp[0];
#pragma omp master
    y[1] += 2 * tmp[1];
  }
}

double maxsq(const double *x, int n) {
  double m = -1;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; i++)
    m = x[i] * x[i] > m ? x[i] * x[i] : m;
  return m;
}

double prod(const double *x, int n) {
  double p = 1;
#pragma omp parallel for reduction(* : p)
  for (int i = 0; i < n; i++)
    p *= x[i];
  return p;
}

static void init(double *x) {
  for (int i = 0; i < N; i++)
    x[i] = 0.9 + 0.004 * ((i * 37) % N);
}

int main(void) {
  double x[N], dx[N], w[N], dw[N], tmp[N], dtmp[N], y[N], dy[N];
  char name[64];
  init(x);
  for (int i = 0; i < N; i++)
    w[i] = 1.0 / (i + 1);

  for (int i = 0; i < N; i++) dx[i] = 0;
  __enzyme_autodiff((void *)crit, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    snprintf(name, sizeof name, "critical rev dx[%d]", i);
    check_close(name, dx[i], 3 * x[i] * x[i], 1e-12);
  }
  for (int i = 0; i < N; i++) dx[i] = (i == 4);
  check_close("critical fwd",
              __enzyme_fwddiff((void *)crit, enzyme_dup, x, dx, enzyme_const,
                               N),
              3 * x[4] * x[4], 1e-12);

  for (int i = 0; i < N; i++) dx[i] = 0, dw[i] = 0;
  __enzyme_autodiff((void *)atom, enzyme_dup, x, dx, enzyme_dup, w, dw,
                    enzyme_const, N);
  for (int i = 0; i < N; i++) {
    snprintf(name, sizeof name, "atomic rev dx[%d]", i);
    check_close(name, dx[i], w[i], 1e-12);
    snprintf(name, sizeof name, "atomic rev dw[%d]", i);
    check_close(name, dw[i], x[i], 1e-12);
  }
  for (int i = 0; i < N; i++) dx[i] = 1, dw[i] = 0;
  double want = 0;
  for (int i = 0; i < N; i++) want += w[i];
  check_close("atomic fwd",
              __enzyme_fwddiff((void *)atom, enzyme_dup, x, dx, enzyme_const,
                               w, enzyme_const, N),
              want, 1e-12);

  /* y_i = x_{i+1}^2 x_i, y_0 += x_0^2, y_1 += 2 x_1^2; seed dy_i = 1 + i */
  for (int i = 0; i < N; i++) dx[i] = 0, dtmp[i] = 0, dy[i] = 1 + i;
  __enzyme_autodiff((void *)phases, enzyme_dup, x, dx, enzyme_dup, tmp, dtmp,
                    enzyme_dup, y, dy, enzyme_const, N);
  for (int j = 0; j < N; j++) {
    int p = (j + N - 1) % N; /* y_p reads tmp_j */
    double d = (1 + p) * 2 * x[j] * x[p] + (1 + j) * x[(j + 1) % N] *
                                               x[(j + 1) % N];
    if (j == 0) d += 1 * 2 * x[0];
    if (j == 1) d += 2 * 2 * 2 * x[1];
    snprintf(name, sizeof name, "phases rev dx[%d]", j);
    check_close(name, dx[j], d, 1e-12);
  }
  for (int i = 0; i < N; i++) dx[i] = (i == 1), dtmp[i] = 0, dy[i] = 0;
  __enzyme_fwddiff((void *)phases, enzyme_dup, x, dx, enzyme_dup, tmp, dtmp,
                   enzyme_dup, y, dy, enzyme_const, N);
  check_close("phases fwd dy[0]", dy[0], 2 * x[1] * x[0], 1e-12);
  check_close("phases fwd dy[1]", dy[1], x[2] * x[2] + 2 * 2 * x[1], 1e-12);

  /* the largest x_i^2 is at the largest x_i */
  int arg = 0;
  for (int i = 0; i < N; i++) if (x[i] > x[arg]) arg = i;
  for (int i = 0; i < N; i++) dx[i] = 0;
  __enzyme_autodiff((void *)maxsq, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    snprintf(name, sizeof name, "max rev dx[%d]", i);
    check_close(name, dx[i], i == arg ? 2 * x[i] : 0, 1e-12);
  }

  double p = 1;
  for (int i = 0; i < N; i++) p *= x[i];
  for (int i = 0; i < N; i++) dx[i] = 0;
  __enzyme_autodiff((void *)prod, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    snprintf(name, sizeof name, "product rev dx[%d]", i);
    check_close(name, dx[i], p / x[i], 1e-11);
  }
  for (int i = 0; i < N; i++) dx[i] = (i == 7);
  check_close("product fwd",
              __enzyme_fwddiff((void *)prod, enzyme_dup, x, dx, enzyme_const,
                               N),
              p / x[7], 1e-11);
  return check_report();
}
