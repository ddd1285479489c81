/* Gradient and Hessian-diagonal functions for the centroid-cost tests
 * (select-chosen-loop-results.c, fmin-chosen-loop-results.c): a cost
 * void name(const double *points, const double *centroids, double *out)
 * over the file's points P[N * D] and centroids C[K * D], declared before
 * this header is included.
 * GRADIENT(name) defines grad_name(c, g), g = d name / d c by reverse mode,
 * and hess_name(g, hv), the gradient again and H * ones (the Hessian's
 * diagonal, the Hessian being diagonal) by forward mode over grad_name.
 * Each names its cost at the request, as forward over reverse needs. */
#ifndef TAPESTRY_TEST_CENTROID_DERIVATIVES_H
#define TAPESTRY_TEST_CENTROID_DERIVATIVES_H

#include "check.h"
#include <stdio.h>
#include <string.h>

extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

typedef void Objective(const double *, const double *, double *);

#define GRADIENT(name)                                                         \
  static void grad_##name(const double *c, double *g) {                        \
    double out = 0, seed = 1;                                                  \
    memset(g, 0, sizeof(double) * K * D);                                      \
    __enzyme_autodiff((void *)name, enzyme_const, P, enzyme_dup, c, g,         \
                      enzyme_dup, &out, &seed);                                \
  }                                                                            \
  static void hess_##name(double *g, double *hv) {                             \
    double ones[K * D];                                                        \
    for (int q = 0; q < K * D; q++)                                            \
      ones[q] = 1, g[q] = hv[q] = 0;                                           \
    __enzyme_fwddiff((void *)grad_##name, enzyme_dup, C, ones, enzyme_dup, g,  \
                     hv);                                                      \
  }

/* Runs hess (a hess_name) and checks the gradient and the Hessian's
 * diagonal it gives against wantG and wantH. */
static void check_hessian(const char *name, void (*hess)(double *, double *),
                          const double *wantG, const double *wantH) {
  double g[K * D], hv[K * D];
  char what[96];
  hess(g, hv);
  for (int q = 0; q < K * D; q++) {
    snprintf(what, sizeof what, "%s grad d/dc[%d] (forward over reverse)",
             name, q);
    check_close(what, g[q], wantG[q], 1e-12);
    snprintf(what, sizeof what, "%s Hessian diagonal [%d]", name, q);
    check_close(what, hv[q], wantH[q], 1e-12);
  }
}

#endif
