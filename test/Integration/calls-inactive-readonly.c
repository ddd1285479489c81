// A function declared inactive whose body only reads differentiated data (a
// logger printing a vector, a checker returning an integer) stays inactive
// even when that data is read with a derivative afterwards and is the
// caller's: no error, and the gradient matches central finite differences
// in reverse and forward mode. (One that may write it is rejected:
// test/Errors/inactive-declared-copy.c.)
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#include "Inputs/gradcheck.h"

static int log_lines;
__attribute__((noinline)) void log_vec(const char *what, const double *x,
                                       int n) {
  double norm = 0;
  for (int i = 0; i < n; i++)
    norm += x[i] * x[i];
  if (norm > 1e300)
    printf("%s: huge\n", what);
  log_lines++;
}
__attribute__((noinline)) int all_finite(const double *x, int n) {
  for (int i = 0; i < n; i++)
    if (!isfinite(x[i]))
      return 0;
  return 1;
}
void *__enzyme_inactivefn[] = {(void *)log_vec, (void *)all_finite};

double smooth(double *x, int n) {
  log_vec("in", x, n);
  double *y = malloc(n * sizeof *y);
  for (int i = 0; i < n; i++)
    y[i] = sin(x[i]) + x[(i + 1) % n] * x[i];
  log_vec("y", y, n);
  double s = all_finite(y, n) ? 0.5 : 0.0;
  for (int i = 0; i < n; i++)
    s += y[i] * y[i] * x[i];
  free(y);
  return s;
}

#define NK 5
static double e_smooth(const double *p) {
  double *x = copy_of(p, NK);
  double r = smooth(x, NK);
  free(x);
  return r;
}
static void g_smooth(const double *p, double *g) {
  double *x = copy_of(p, NK);
  __enzyme_autodiff((void *)smooth, enzyme_dup, x, g, enzyme_const, NK);
  free(x);
}
static double t_smooth(const double *p, int j) {
  double *x = copy_of(p, NK), *tx = unit_slice(j, 0, NK);
  double t =
      __enzyme_fwddiff((void *)smooth, enzyme_dup, x, tx, enzyme_const, NK);
  free(x), free(tx);
  return t;
}

int main(void) {
  double p[NK];
  fill(p, NK, -1.0, 1.5, 3);
  compare("smooth", NK, p, e_smooth, g_smooth, t_smooth);
  return check_report();
}
