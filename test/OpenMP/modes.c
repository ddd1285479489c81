// Parallel regions in split mode (__enzyme_augmentfwd / __enzyme_reverse,
// the threads' tapes carried from one half to the other), batch mode (two
// shadows per array, forward and reverse), a region that overwrites the
// array it reads (x[i] = sin(x[i]) x[i], replayed from each thread's tape),
// and a region inside a time loop, with 1, 2 and 4 threads, against the
// one-shot reverse and analytic derivatives.
// RUN: %clang -O0 -fopenmp %s -lm -o %t0
// RUN: env OMP_NUM_THREADS=1 %t0 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 %t0 | FileCheck %s
// RUN: env OMP_NUM_THREADS=4 %t0 | FileCheck %s
// RUN: %clang -O1 -fopenmp %s -lm -o %t1 && env OMP_NUM_THREADS=2 %t1 | FileCheck %s
// RUN: %clang -O2 -fopenmp %s -lm -o %t2
// RUN: env OMP_NUM_THREADS=2 %t2 | FileCheck %s
// RUN: env OMP_NUM_THREADS=4 %t2 | FileCheck %s
// RUN: %clang -O3 -fopenmp %s -lm -o %t3 && env OMP_NUM_THREADS=3 %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_width;
void __enzyme_autodiff(void *, ...);
double __enzyme_autodiff_d(void *, ...);
double __enzyme_fwddiff(void *, ...);
typedef struct {
  void *tape;
  double primal;
} aug_d;
aug_d __enzyme_augmentfwd_d(void *, ...);
void __enzyme_reverse(void *, ...);
typedef struct {
  double d[2];
} D2;
D2 __enzyme_fwddiff_2(void *, ...);

#define N 41

/* in place, then a weighted sum: sum_i w_i sin(x_i) x_i */
double inplace(double *x, const double *w, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    x[i] = sin(x[i]) * x[i];
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += w[i] * x[i];
  return s;
}

/* steps of u <- u + 0.1 u^2 (each a parallel loop), then sum u */
double steps(double *u, int n, int k) {
  for (int t = 0; t < k; t++) {
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      u[i] = u[i] + 0.1 * u[i] * u[i];
  }
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += u[i];
  return s;
}

static void init(double *x, double *w) {
  for (int i = 0; i < N; i++)
    x[i] = 0.2 + 0.02 * i, w[i] = 1.0 + 0.1 * (i % 5);
}

int main(void) {
  double x[N], x0[N], w[N], dx[N], d1[N], once[N];
  char name[64];
  init(x0, w);

  /* one-shot reverse: d/dx_i = w_i (cos x x + sin x) */
  for (int i = 0; i < N; i++) x[i] = x0[i], dx[i] = 0;
  __enzyme_autodiff((void *)inplace, enzyme_dup, x, dx, enzyme_const, w,
                    enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double xi = x0[i];
    once[i] = w[i] * (cos(xi) * xi + sin(xi));
    snprintf(name, sizeof name, "in place rev dx[%d]", i);
    check_close(name, dx[i], once[i], 1e-12);
    snprintf(name, sizeof name, "in place rev leaves x[%d]", i);
    check_close(name, x[i], sin(xi) * xi, 1e-15);
  }

  /* split mode */
  for (int i = 0; i < N; i++) x[i] = x0[i], dx[i] = 0;
  aug_d r = __enzyme_augmentfwd_d((void *)inplace, enzyme_dup, x, dx,
                                  enzyme_const, w, enzyme_const, N);
  double want = 0;
  for (int i = 0; i < N; i++) want += w[i] * sin(x0[i]) * x0[i];
  check_close("split primal", r.primal, want, 1e-12);
  __enzyme_reverse((void *)inplace, enzyme_dup, x, dx, enzyme_const, w,
                   enzyme_const, N, 1.0, r.tape);
  for (int i = 0; i < N; i++) {
    snprintf(name, sizeof name, "split rev dx[%d]", i);
    check_close(name, dx[i], once[i], 1e-12);
  }

  /* batch reverse: two seeds 1 and 2 */
  for (int i = 0; i < N; i++) x[i] = x0[i], dx[i] = 0, d1[i] = 0;
  __enzyme_autodiff((void *)inplace, enzyme_width, 2, enzyme_dup, x, dx, d1,
                    enzyme_const, w, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    snprintf(name, sizeof name, "batch rev lane 0 dx[%d]", i);
    check_close(name, dx[i], once[i], 1e-12);
    snprintf(name, sizeof name, "batch rev lane 1 dx[%d]", i);
    check_close(name, d1[i], once[i], 1e-12);
  }

  /* batch forward: directions all-ones and e_3 */
  double t0[N], t1[N], w0 = 0;
  for (int i = 0; i < N; i++)
    x[i] = x0[i], t0[i] = 1, t1[i] = (i == 3), w0 += once[i];
  D2 t = __enzyme_fwddiff_2((void *)inplace, enzyme_width, 2, enzyme_dup, x,
                            t0, t1, enzyme_const, w, enzyme_const, N);
  check_close("batch fwd lane 0", t.d[0], w0, 1e-12);
  check_close("batch fwd lane 1", t.d[1], once[3], 1e-12);

  /* time loop: d/du0 of u_k with u' = 1 + 0.2 u per step */
  for (int i = 0; i < N; i++) x[i] = x0[i], dx[i] = 0;
  __enzyme_autodiff((void *)steps, enzyme_dup, x, dx, enzyme_const, N,
                    enzyme_const, 5);
  for (int i = 0; i < N; i++) {
    double u = x0[i], d = 1;
    for (int k = 0; k < 5; k++) d *= 1 + 0.2 * u, u += 0.1 * u * u;
    snprintf(name, sizeof name, "time loop rev du[%d]", i);
    check_close(name, dx[i], d, 1e-12);
  }
  for (int i = 0; i < N; i++) x[i] = x0[i], dx[i] = (i == 7);
  double u = x0[7], d = 1;
  for (int k = 0; k < 5; k++) d *= 1 + 0.2 * u, u += 0.1 * u * u;
  check_close("time loop fwd",
              __enzyme_fwddiff((void *)steps, enzyme_dup, x, dx, enzyme_const,
                               N, enzyme_const, 5),
              d, 1e-12);
  return check_report();
}
