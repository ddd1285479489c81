// Two parallel regions reading one enzyme_const array (fuzz seed 42 of
// `--features all,omp`, reduced): clang keeps the array's address in a
// stack slot both forks pass. Preparing the first fork found the second
// still passing the slot, so the first read the pointer back from it; the
// slot also holds the constant pointer's marker, so the plugin rejected the
// program ("argument 5 of this call is a pointer read from memory that also
// holds pointers to constant data") in reverse and split mode. Likewise
// a region taking the array firstprivate (seed 60 of the same campaign):
// clang passes the pointer it loads from the slot, at -O2 a phi of such
// loads where a region sits in a branch before it (`h`). Checked
// against analytic derivatives, at 1 and 2 threads, -O0 and -O2, with the
// array constant and (the other path) duplicated.
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
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff_typed(void *, int, const double *, int, double, int,
                               double);

#define N 7

/* sum_j a_j x + sum_j (a_j > 0 ? x^2 : x) */
double f(const double *a, double x) {
  double r0 = 0;
#pragma omp parallel for reduction(+ : r0)
  for (int j = 0; j < N; j++)
    r0 += a[j] * x;
  double r1 = 0;
#pragma omp parallel for reduction(+ : r1) schedule(dynamic)
  for (int j = 0; j < N; j++)
    r1 += a[j] > 0 ? x * x : x;
  return r0 + r1;
}

/* sum_j a_j x + min_j a_j x^2 (x > 0), the second region's copy of a
   firstprivate */
double g(const double *a, double x) {
  double r0 = 0;
#pragma omp parallel for reduction(+ : r0)
  for (int j = 0; j < N; j++)
    r0 += a[j] * x;
  double r1 = 1e3;
#pragma omp parallel for reduction(min : r1) firstprivate(a)
  for (int j = 0; j < N; j++)
    r1 = fmin(r1, a[j] * x * x);
  return r0 + r1;
}

/* c > 0: sum_j a_j x; plus min_j a_j x^2 (x > 0) */
double h(const double *a, double x, double c) {
  double s = 0;
  if (c > 0) {
#pragma omp parallel for reduction(+ : s)
    for (int j = 0; j < N; j++)
      s += a[j] * x;
  }
  double r = 1e3;
#pragma omp parallel for reduction(min : r) firstprivate(a)
  for (int j = 0; j < N; j++)
    r = fmin(r, a[j] * x * x);
  return s + r;
}

int main(void) {
  double a[N], da[N];
  double x = 0.3, want = 0;
  for (int j = 0; j < N; j++) {
    a[j] = (j % 3 == 1 ? -1 : 1) * (0.25 + 0.125 * j);
    want += a[j] + (a[j] > 0 ? 2 * x : 1);
  }
  check_close("rev const a: dx",
              __enzyme_autodiff((void *)f, enzyme_const, a, enzyme_out, x),
              want, 1e-12);
  check_close("fwd const a: dx",
              __enzyme_fwddiff((void *)f, enzyme_const, a, x, 1.0), want,
              1e-12);
  for (int j = 0; j < N; j++)
    da[j] = 0;
  check_close("rev dup a: dx",
              __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_out, x),
              want, 1e-12);
  for (int j = 0; j < N; j++) {
    char name[32];
    snprintf(name, sizeof name, "rev dup a: da[%d]", j);
    check_close(name, da[j], x, 1e-12);
  }
  double gw = 0, amin = a[0], sum = 0;
  for (int j = 0; j < N; j++) {
    sum += a[j];
    gw += a[j];
    amin = a[j] < amin ? a[j] : amin;
  }
  gw += 2 * amin * x;
  check_close("g rev const a: dx",
              __enzyme_autodiff((void *)g, enzyme_const, a, enzyme_out, x), gw,
              1e-12);
  check_close("g fwd const a: dx",
              __enzyme_fwddiff((void *)g, enzyme_const, a, x, 1.0), gw, 1e-12);
  for (int k = 0; k < 2; k++) {
    double c = k ? -1.0 : 1.0, hw = gw - (k ? sum : 0);
    check_close(k ? "h rev, no first region" : "h rev, both regions",
                __enzyme_autodiff_typed((void *)h, enzyme_const, a, enzyme_out,
                                        x, enzyme_const, c),
                hw, 1e-12);
    check_close(k ? "h fwd, no first region" : "h fwd, both regions",
                __enzyme_fwddiff((void *)h, enzyme_const, a, x, 1.0,
                                 enzyme_const, c),
                hw, 1e-12);
  }
  return check_report();
}
