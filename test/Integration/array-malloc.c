// Heap memory inside differentiated functions, in reverse and forward mode
// against central finite differences: malloc'd scratch space (malloc, fill,
// reduce, free), calloc'd accumulators, scratch allocated and freed in every
// iteration of a loop, and a buffer grown by one element per step by
// allocating a larger one, copying (memcpy) and freeing the old. (Growth by
// doubling: array-malloc-grow.c; realloc: array-malloc-realloc.c.)
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

double scratch_reduce(const double *x, int n) {
  double *t = malloc(n * sizeof *t);
  for (int i = 0; i < n; i++)
    t[i] = exp(0.5 * x[i]) * x[(i + 1) % n];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * t[n - 1 - i];
  free(t);
  return s;
}

/* h_j = sum_i x_i x_j w_ij accumulated into calloc'd memory */
double calloc_accumulate(const double *x, int n) {
  double *h = calloc(n, sizeof *h);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      h[j] += x[i] * x[j] / (1 + i + j);
  double s = 0;
  for (int j = 0; j < n; j++)
    s += sin(h[j]);
  free(h);
  return s;
}

/* A scratch buffer per iteration of an outer loop. */
double scratch_per_step(const double *x, int n, int steps) {
  double acc = 0;
  for (int t = 0; t < steps; t++) {
    double *w = malloc(n * sizeof *w);
    for (int i = 0; i < n; i++)
      w[i] = cos(x[i] + 0.1 * t + acc);
    double s = 0;
    for (int i = 0; i < n; i++)
      s += w[i] * x[i];
    free(w);
    acc = 0.5 * acc + 0.1 * s;
  }
  return acc;
}

/* A buffer grown by one element per step: allocate a larger one, copy
   (memcpy), free the old; each new element depends on the previous one. (The
   doubling-capacity version, where the copy is conditional, is in
   array-malloc-grow.c.) */
double grow_each_step(const double *x, int n) {
  double *buf = malloc(sizeof *buf);
  buf[0] = 1;
  for (int i = 0; i < n; i++) {
    double *bigger = malloc((i + 2) * sizeof *bigger);
    memcpy(bigger, buf, (i + 1) * sizeof *buf);
    free(buf);
    bigger[i + 1] = 0.5 * bigger[i] * x[i] + sin(x[i]);
    buf = bigger;
  }
  double s = 0;
  for (int k = 0; k <= n; k++)
    s += buf[k] * buf[n - k];
  free(buf);
  return s;
}

#define NM 9
#define STEPS 5

/* ARRAY_TEST(F, (primal extra args), (enzyme extra args)) */
#define UNPAREN(...) __VA_ARGS__
#define ARRAY_TEST(F, PX, EX)                                                  \
  static double F##_eval(const double *p) {                                    \
    double *x = copy_of(p, NM);                                                \
    double r = F(x, NM UNPAREN PX);                                            \
    free(x);                                                                   \
    return r;                                                                  \
  }                                                                            \
  static void F##_grad(const double *p, double *g) {                           \
    double *x = copy_of(p, NM);                                                \
    __enzyme_autodiff((void *)F, enzyme_dup, x, g, enzyme_const,               \
                      NM UNPAREN EX);                                          \
    free(x);                                                                   \
  }                                                                            \
  static double F##_tangent(const double *p, int j) {                          \
    double *x = copy_of(p, NM), *tx = unit_slice(j, 0, NM);                    \
    double t = __enzyme_fwddiff((void *)F, enzyme_dup, x, tx, enzyme_const,    \
                                NM UNPAREN EX);                                \
    free(x), free(tx);                                                         \
    return t;                                                                  \
  }
ARRAY_TEST(scratch_reduce, (), ())
ARRAY_TEST(calloc_accumulate, (), ())
ARRAY_TEST(scratch_per_step, (, STEPS), (, enzyme_const, STEPS))
ARRAY_TEST(grow_each_step, (), ())
#define COMPARE(F, p) compare(#F, NM, p, F##_eval, F##_grad, F##_tangent)

int main(void) {
  double p[NM];
  fill(p, NM, -1.0, 1.5, 12);
  COMPARE(scratch_reduce, p);
  COMPARE(calloc_accumulate, p);
  COMPARE(scratch_per_step, p);
  COMPARE(grow_each_step, p);
  return check_report();
}
