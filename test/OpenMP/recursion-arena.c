// Gradients of a recursive function taken inside an OpenMP parallel loop,
// run with 1, 2 and 4 threads: each thread's derivative takes the tapes of
// its recursive calls from that thread's own tape arena
// (plugin/Synthesis/TapeCache.h), at depths from 1 to 3,000, so that the
// threads' arenas grow, shrink back and grow again at the same time. Each
// gradient is checked against the analytic one. A parallel region inside
// the differentiated function keeps its tapes on malloc (its reverse may run
// on other threads): test/OpenMP/parallel-for.c, whose loop body calls a
// function it does not inline.
// RUN: %clang -O0 -fopenmp %s -lm -o %t0
// RUN: env OMP_NUM_THREADS=1 %t0 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 %t0 | FileCheck %s
// RUN: env OMP_NUM_THREADS=4 %t0 | FileCheck %s
// RUN: %clang -O2 -fopenmp %s -lm -o %t2
// RUN: env OMP_NUM_THREADS=2 %t2 | FileCheck %s
// RUN: env OMP_NUM_THREADS=4 %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <omp.h>

extern int enzyme_const;
double __enzyme_autodiff(void *, ...);

// p(x, d) = sin(p(x, d - 1)) + x / d + s_d(x), p(x, 0) = x, s_d a short sum
// of sines: the chain rule through d levels,
// p'(x, d) = cos(p(x, d - 1)) p'(x, d - 1) + 1 / d + s_d'(x).
double p(double x, int d) {
  if (d == 0)
    return x;
  double s = 0;
  // A loop whose records the reverse needs (s changes each iteration).
  for (int i = 0; i <= d % 4; ++i)
    s = s * 0.5 + sin(x * (i + 1)) * 1e-3;
  return sin(p(x, d - 1)) + x / d + s;
}

// The same by forward recursion: value and derivative.
static void want(double x, int d, double *v, double *dv) {
  double pv = x, pd = 1;
  for (int k = 1; k <= d; ++k) {
    double s = 0, ds = 0;
    for (int i = 0; i <= k % 4; ++i) {
      s = s * 0.5 + sin(x * (i + 1)) * 1e-3;
      ds = ds * 0.5 + cos(x * (i + 1)) * (i + 1) * 1e-3;
    }
    double nv = sin(pv) + x / k + s;
    double nd = cos(pv) * pd + 1.0 / k + ds;
    pv = nv;
    pd = nd;
  }
  *v = pv;
  *dv = pd;
}

#define M 64

int main(void) {
  double got[M], x[M];
  int depth[M];
  for (int j = 0; j < M; ++j) {
    x[j] = 0.1 + 0.01 * j;
    depth[j] = j % 3 == 0 ? 3000 - 13 * j : 1 + j * 7;
  }
#pragma omp parallel for schedule(dynamic, 1)
  for (int j = 0; j < M; ++j)
    got[j] = __enzyme_autodiff((void *)p, x[j], enzyme_const, depth[j]);
  int bad = 0;
  for (int j = 0; j < M; ++j) {
    double v, dv;
    want(x[j], depth[j], &v, &dv);
    if (fabs(got[j] - dv) > 1e-10 * (1 + fabs(dv))) {
      ++bad;
      printf("FAIL x = %g, depth %d: got %.15g want %.15g\n", x[j], depth[j],
             got[j], dv);
    }
  }
  check_close("wrong gradients", bad, 0, 0);
  double v, dv;
  want(x[5], depth[5], &v, &dv);
  check_close("one gradient", got[5], dv, 1e-10);
  return check_report();
}
