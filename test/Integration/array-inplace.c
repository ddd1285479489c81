// Output arrays that alias their input: f(double *x) writes x[i] = g(x[i])
// in place (element-wise, and coupled to already-updated neighbours), in
// reverse and forward mode. Reverse-mode semantics: dx holds the seed for the
// overwritten output on entry and the vector-Jacobian product with it (the
// gradient w.r.t. the input) on exit. Checked against central finite
// differences of seed . f(x), and against forward mode (tangent of the
// overwritten array) dotted with the seed. Also the same functions called
// with the output array and the input array being the same pointer.
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

/* element-wise, in place */
void map_inplace(double *x, int n) {
  for (int i = 0; i < n; i++)
    x[i] = sin(x[i]) * x[i] + 0.1 * x[i] * x[i];
}

/* in place, each element coupled to its already-updated left neighbour (a
   running recurrence) */
void scan_inplace(double *x, int n) {
  for (int i = 1; i < n; i++)
    x[i] = x[i] * cos(x[i - 1]) + 0.5 * x[i - 1];
}

/* several in-place passes, the last one backwards */
void passes_inplace(double *x, int n) {
  for (int pass = 0; pass < 3; pass++)
    for (int i = 0; i < n; i++)
      x[i] = x[i] + 0.1 * tanh(x[(i + 1) % n]);
  for (int i = n - 2; i >= 0; i--)
    x[i] *= exp(-0.2 * x[i + 1] * x[i + 1]);
}

/* y = g(x) with separate output, called with y == x */
void map_out(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = exp(0.3 * x[i]) - x[i];
}

#define NI 8
static double seed[NI];
static double seed_dot(const double *x) {
  double s = 0;
  for (int i = 0; i < NI; i++)
    s += seed[i] * x[i];
  return s;
}

#define INPLACE_TEST(F)                                                        \
  static double F##_eval(const double *p) {                                    \
    double *x = copy_of(p, NI);                                                \
    F(x, NI);                                                                  \
    double r = seed_dot(x);                                                    \
    free(x);                                                                   \
    return r;                                                                  \
  }                                                                            \
  static void F##_grad(const double *p, double *g) {                           \
    double *x = copy_of(p, NI), *xp = copy_of(p, NI);                          \
    memcpy(g, seed, sizeof seed); /* seed of the overwritten output */         \
    __enzyme_autodiff((void *)F, enzyme_dup, x, g, enzyme_const, NI);          \
    F(xp, NI);                                                                 \
    for (int i = 0; i < NI; i++)                                               \
      check_close(LABEL(#F ": reverse mode leaves the primal x[%d]", i), x[i], \
                  xp[i], 1e-15);                                               \
    free(x), free(xp);                                                         \
  }                                                                            \
  static double F##_tangent(const double *p, int j) {                          \
    double *x = copy_of(p, NI), *tx = unit_slice(j, 0, NI);                    \
    __enzyme_fwddiff_v((void *)F, enzyme_dup, x, tx, enzyme_const, NI);        \
    double t = seed_dot(tx);                                                   \
    free(x), free(tx);                                                         \
    return t;                                                                  \
  }
INPLACE_TEST(map_inplace)
INPLACE_TEST(scan_inplace)
INPLACE_TEST(passes_inplace)

/* map_out(x, x, n): the same pointer as input and output */
static void map_out_same(double *x, int n) { map_out(x, x, n); }
static double mo_eval(const double *p) {
  double *x = copy_of(p, NI);
  map_out_same(x, NI);
  double r = seed_dot(x);
  free(x);
  return r;
}
static void mo_grad(const double *p, double *g) {
  double *x = copy_of(p, NI);
  memcpy(g, seed, sizeof seed);
  __enzyme_autodiff((void *)map_out, enzyme_dup, x, g, enzyme_dup, x, g,
                    enzyme_const, NI);
  free(x);
}
static double mo_tangent(const double *p, int j) {
  double *x = copy_of(p, NI), *tx = unit_slice(j, 0, NI);
  __enzyme_fwddiff_v((void *)map_out, enzyme_dup, x, tx, enzyme_dup, x, tx,
                     enzyme_const, NI);
  double t = seed_dot(tx);
  free(x), free(tx);
  return t;
}

static void map_inplace_analytic(const double *p) {
  double x[NI], dx[NI];
  memcpy(x, p, sizeof x);
  memcpy(dx, seed, sizeof dx);
  __enzyme_autodiff((void *)map_inplace, enzyme_dup, x, dx, enzyme_const, NI);
  for (int i = 0; i < NI; i++)
    check_close(LABEL("map_inplace: dx[%d] = seed g'(x)", i), dx[i],
                seed[i] * (cos(p[i]) * p[i] + sin(p[i]) + 0.2 * p[i]), 1e-14);
}

int main(void) {
  double p[NI];
  fill(p, NI, -1.5, 1.5, 18);
  fill(seed, NI, -1.0, 2.0, 19);
  compare("map_inplace", NI, p, map_inplace_eval, map_inplace_grad,
          map_inplace_tangent);
  map_inplace_analytic(p);
  compare("scan_inplace", NI, p, scan_inplace_eval, scan_inplace_grad,
          scan_inplace_tangent);
  compare("passes_inplace", NI, p, passes_inplace_eval, passes_inplace_grad,
          passes_inplace_tangent);
  compare("map_out(x, x)", NI, p, mo_eval, mo_grad, mo_tangent);
  return check_report();
}
