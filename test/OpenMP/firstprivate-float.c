// firstprivate copies of a float, a double and an array pointer (fuzz seed
// 38 of `--features all,omp`, reduced): clang passes a float firstprivate to
// the region as an i64 zero-extended from its bits; the plugin took that
// integer for the value and rejected the region ("a float is reinterpreted
// as a int here"). And (seed 188) a double firstprivate after an if whose
// branches each have a region: at -O2 the optimiser merges the two
// branches' i64 copies of the double into a phi, which was rejected the
// same way ("a double is reinterpreted as a long here"). Reverse and
// forward mode at 1 and 2 threads, -O0 and -O2, against analytic
// derivatives.
// RUN: %clang -O0 -fopenmp %s -lm -o %t0
// RUN: env OMP_NUM_THREADS=1 %t0 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 %t0 | FileCheck %s
// RUN: %clang -O2 -fopenmp %s -lm -o %t2
// RUN: env OMP_NUM_THREADS=1 %t2 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_const, enzyme_dup, enzyme_out;
typedef struct { float dx; double dy; } Grad;
Grad __enzyme_autodiff(void *, ...);
double __enzyme_autodiff_typed(void *, int, double, int, double);
double __enzyme_fwddiff(void *, ...);

#define N 5

/* sum_j sin((j + 1) x) y a[j], x float */
double f(float x, double y, const double *a) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) firstprivate(x, y, a)
  for (int j = 0; j < N; j++)
    s += sinf((j + 1) * x) * y * a[j];
  return s;
}

/* c > 0: sum_j sin((j + 1) x), else sum_j cos((j + 1) x); plus 10 x^2 */
double branches(double x, double c) {
  double s = 0, t = 0, u = 0;
  if (c > 0) {
#pragma omp parallel for reduction(+ : s)
    for (int j = 0; j < N; j++)
      s += sin(x * (j + 1));
  } else {
#pragma omp parallel for reduction(+ : t) firstprivate(x)
    for (int j = 0; j < N; j++)
      t += cos(x * (j + 1));
  }
#pragma omp parallel for reduction(+ : u) firstprivate(x)
  for (int j = 0; j < 4; j++)
    u += x * x * (j + 1);
  return s + t + u;
}

int main(void) {
  double a[N], da[N];
  float x = 0.375f;
  double y = -1.25, wx = 0, wy = 0;
  for (int j = 0; j < N; j++) {
    a[j] = 0.5 + 0.25 * j;
    da[j] = 0;
    wx += (j + 1) * cosf((j + 1) * x) * y * a[j];
    wy += sinf((j + 1) * x) * a[j];
  }
  Grad g = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_out, y,
                             enzyme_dup, a, da);
  check_close("rev dx", g.dx, wx, 1e-5);
  check_close("rev dy", g.dy, wy, 1e-6);
  for (int j = 0; j < N; j++) {
    char name[32];
    snprintf(name, sizeof name, "rev da[%d]", j);
    check_close(name, da[j], sinf((j + 1) * x) * y, 1e-6);
  }
  check_close("fwd dx",
              __enzyme_fwddiff((void *)f, x, 1.0f, y, 0.0, enzyme_const, a),
              wx, 1e-5);
  check_close("fwd dy",
              __enzyme_fwddiff((void *)f, x, 0.0f, y, 1.0, enzyme_const, a),
              wy, 1e-6);
  for (int k = 0; k < 2; k++) {
    double c = k ? -1.0 : 1.0, z = 0.3, want = 20 * z;
    for (int j = 0; j < N; j++)
      want += c > 0 ? (j + 1) * cos((j + 1) * z) : -(j + 1) * sin((j + 1) * z);
    check_close(k ? "g rev, else branch" : "g rev, then branch",
                __enzyme_autodiff_typed((void *)branches, enzyme_out, z, enzyme_const, c),
                want, 1e-12);
    check_close(k ? "g fwd, else branch" : "g fwd, then branch",
                __enzyme_fwddiff((void *)branches, z, 1.0, enzyme_const, c), want,
                1e-12);
  }
  return check_report();
}
