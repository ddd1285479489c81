// A parallel region with both a num_threads and an if clause (fuzz seed 15
// of `--features all,omp`, reduced): clang puts __kmpc_push_num_threads
// before the branch the if clause needs, so it is not in the fork's block.
// The reverse sweep sized its array of per-thread tapes by
// omp_get_max_threads() alone: at OMP_NUM_THREADS=1 the team of 8 wrote
// past it (a heap overflow: "malloc(): corrupted top size", or a split
// reverse told its tape "was not filled by its __enzyme_augmentfwd").
// Reverse (one-shot and split, two tapes alive at once) and forward mode,
// at 1 and 2 threads, the if clause true (n = 9) and false (n = 2), against
// analytic derivatives.
// RUN: %clang -O0 -fopenmp %s -lm -o %t0
// RUN: env OMP_NUM_THREADS=1 %t0 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 %t0 | FileCheck %s
// RUN: %clang -O2 -fopenmp %s -lm -o %t2
// RUN: env OMP_NUM_THREADS=1 %t2 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_const, enzyme_out;
typedef struct { void *tape; double p; } Aug;
typedef struct { double dx; } Grad;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
Aug __enzyme_augmentfwd(void *, ...);
Grad __enzyme_reverse(void *, ...);

/* sum_{j < n} sin((j + 1) x) */
double f(double x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(8) if (n > 3)
  for (int j = 0; j < n; j++)
    s += sin((j + 1) * x);
  return s;
}

static double df(double x, int n) {
  double d = 0;
  for (int j = 0; j < n; j++)
    d += (j + 1) * cos((j + 1) * x);
  return d;
}

int main(void) {
  const int ns[2] = {9, 2};
  for (int k = 0; k < 2; k++) {
    int n = ns[k];
    char name[64];
    snprintf(name, sizeof name, "n=%d rev", n);
    check_close(name, __enzyme_autodiff((void *)f, enzyme_out, 0.3,
                                        enzyme_const, n),
                df(0.3, n), 1e-12);
    snprintf(name, sizeof name, "n=%d fwd", n);
    check_close(name, __enzyme_fwddiff((void *)f, 0.3, 1.0, enzyme_const, n),
                df(0.3, n), 1e-12);
    Aug a = __enzyme_augmentfwd((void *)f, enzyme_out, 0.3, enzyme_const, n);
    Aug b = __enzyme_augmentfwd((void *)f, enzyme_out, -0.7, enzyme_const, n);
    snprintf(name, sizeof name, "n=%d split primal", n);
    check_close(name, a.p, f(0.3, n), 1e-12);
    Grad ga = __enzyme_reverse((void *)f, enzyme_out, 0.3, enzyme_const, n,
                               1.0, a.tape);
    Grad gb = __enzyme_reverse((void *)f, enzyme_out, -0.7, enzyme_const, n,
                               1.0, b.tape);
    snprintf(name, sizeof name, "n=%d split first tape", n);
    check_close(name, ga.dx, df(0.3, n), 1e-12);
    snprintf(name, sizeof name, "n=%d split second tape", n);
    check_close(name, gb.dx, df(-0.7, n), 1e-12);
  }
  return check_report();
}
