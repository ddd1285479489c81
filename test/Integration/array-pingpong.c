// Ping-pong buffers swapped by pointer every time step, in reverse and forward
// mode against central finite differences: two caller buffers (the second's
// initial contents are never read, so its gradient is zero) with an even and
// an odd number of steps, so the result ends in either buffer; and two
// malloc'd internal buffers initialised from the input and freed at the end.
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

/* One step of a smoothing stencil with a nonlinearity, from src to dst. */
static void step(const double *src, double *dst, int n, double c) {
  for (int i = 0; i < n; i++) {
    double l = src[i > 0 ? i - 1 : n - 1], r = src[i + 1 < n ? i + 1 : 0];
    dst[i] = src[i] + c * (l - 2 * src[i] + r) + 0.01 * sin(src[i]);
  }
}

double pingpong(double *a, double *b, int n, int steps, double c) {
  for (int t = 0; t < steps; t++) {
    step(a, b, n, c);
    double *tmp = a;
    a = b;
    b = tmp;
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (1 + 0.1 * i) * a[i] * a[i];
  return s;
}

/* The same with the buffers internal: copy in, swap, free. */
double pingpong_internal(const double *u, int n, int steps, double c) {
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  for (int i = 0; i < n; i++)
    a[i] = u[i];
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      b[i] = a[i] + c * (a[i - 1] - 2 * a[i] + a[i + 1]);
    b[0] = a[0];
    b[n - 1] = a[n - 1];
    double *tmp = a;
    a = b;
    b = tmp;
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(0.3 * a[i]);
  free(a);
  free(b);
  return s;
}

#define NP 12
static int steps;

/* p = [a (NP), b (NP), c] */
static double pp_eval(const double *p) {
  double *a = copy_of(p, NP), *b = copy_of(p + NP, NP);
  double r = pingpong(a, b, NP, steps, p[2 * NP]);
  free(a), free(b);
  return r;
}
static void pp_grad(const double *p, double *g) {
  double *a = copy_of(p, NP), *b = copy_of(p + NP, NP);
  g[2 * NP] = __enzyme_autodiff_d((void *)pingpong, enzyme_dup, a, g,
                                  enzyme_dup, b, g + NP, enzyme_const, NP,
                                  enzyme_const, steps, enzyme_out, p[2 * NP]);
  free(a), free(b);
}
static double pp_tangent(const double *p, int j) {
  double *a = copy_of(p, NP), *b = copy_of(p + NP, NP);
  double *ta = unit_slice(j, 0, NP), *tb = unit_slice(j, NP, NP);
  double t = __enzyme_fwddiff((void *)pingpong, enzyme_dup, a, ta, enzyme_dup,
                              b, tb, enzyme_const, NP, enzyme_const, steps,
                              enzyme_dup, p[2 * NP], (double)(j == 2 * NP));
  free(a), free(b), free(ta), free(tb);
  return t;
}

/* p = [u (NP), c] */
static double ppi_eval(const double *p) {
  double *u = copy_of(p, NP);
  double r = pingpong_internal(u, NP, steps, p[NP]);
  free(u);
  return r;
}
static void ppi_grad(const double *p, double *g) {
  double *u = copy_of(p, NP);
  g[NP] = __enzyme_autodiff_d((void *)pingpong_internal, enzyme_dup, u, g,
                              enzyme_const, NP, enzyme_const, steps, enzyme_out,
                              p[NP]);
  free(u);
}
static double ppi_tangent(const double *p, int j) {
  double *u = copy_of(p, NP), *tu = unit_slice(j, 0, NP);
  double t = __enzyme_fwddiff((void *)pingpong_internal, enzyme_dup, u, tu,
                              enzyme_const, NP, enzyme_const, steps, enzyme_dup,
                              p[NP], (double)(j == NP));
  free(u), free(tu);
  return t;
}

int main(void) {
  double p[2 * NP + 1];
  fill(p, 2 * NP, -1.0, 1.0, 15);
  p[2 * NP] = 0.2;
  steps = 40;
  compare("pingpong, 40 steps", 2 * NP + 1, p, pp_eval, pp_grad, pp_tangent);
  steps = 41;
  compare("pingpong, 41 steps", 2 * NP + 1, p, pp_eval, pp_grad, pp_tangent);
  p[NP] = 0.15;
  steps = 30;
  compare("pingpong_internal, 30 steps", NP + 1, p, ppi_eval, ppi_grad,
          ppi_tangent);
  steps = 33;
  compare("pingpong_internal, 33 steps", NP + 1, p, ppi_eval, ppi_grad,
          ppi_tangent);
  return check_report();
}
