/*===- tapestry/gradcheck.h - Checks by finite differences ----------*- C -*-===
 *
 * For users' own tests: compare a gradient or a Jacobian (from Tapestry, or
 * written by hand) with central finite differences of the function, over
 * every component or a random sample, and print a readable report.
 *
 *   static double rosen(const double *x, void *ctx) { ... }
 *   double g[2] = {0, 0};
 *   __enzyme_autodiff((void *)rosen_plain, enzyme_dup, x, g);
 *   int bad = tapestry_check_gradient(rosen, NULL, 2, x, g, NULL);
 *
 * The reference is the five-point stencil
 *   d = (8 (f(x+h) - f(x-h)) - (f(x+2h) - f(x-2h))) / (12 h)
 * at h = rel_step * max(1, |x_i|), and its error is estimated by its
 * distance to the three-point stencil (f(x+h) - f(x-h)) / (2h). A component
 * agrees when |derivative - d| <= atol + rtol * max(|derivative|, |d|) +
 * that estimate. Where the estimate is larger than the difference it should
 * resolve (a kink, a branch, a non-finite value near x) the component is
 * reported as uncertain, not as wrong.
 *
 * Link with the Tapestry runtime (-ltapestry-rt, or the CMake target
 * Tapestry::Tapestry).
 *
 *===----------------------------------------------------------------------===*/
#ifndef TAPESTRY_GRADCHECK_H
#define TAPESTRY_GRADCHECK_H

/* A system header, as the standard library's are: the warnings users turn
 * on (-Wreserved-identifier) are about their code, not this header's. */
#pragma GCC system_header

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A zero field takes its default. */
struct tapestry_check_options {
  double rel_step; /* h = rel_step * max(1, |x_i|); default 1e-3 */
  double rtol;     /* default 1e-6 */
  double atol;     /* default 1e-9 */
  int samples;     /* components checked: 0 = all, else a random sample */
  unsigned seed;   /* of the sample (same seed, same components) */
  int quiet;       /* 1: no report */
  FILE *report;    /* where the report goes; NULL = stderr */
};

/* What one check found, for programs that want more than the count. */
struct tapestry_check_result {
  int checked;        /* components compared */
  int mismatches;     /* components that disagree */
  int uncertain;      /* components the finite differences cannot judge */
  long worst;         /* index of the largest relative error (-1: none) */
  double worst_error; /* that error, |derivative - d| / max(1, |d|) */
};

/* A scalar function of n values: f(x, ctx). */
typedef double (*tapestry_scalar_fn)(const double *__x, void *__context);
/* A vector function of n values into m: f(x, y, ctx) writes y[0..m). */
typedef void (*tapestry_vector_fn)(const double *__x, double *__y,
                                   void *__context);

/* Compares grad[0..n) with finite differences of f at x (x is not
 * modified). Returns the number of components that disagree (0: the
 * gradient is right within the tolerances), or -1 for invalid arguments or
 * out of memory. `options` and `result` may be NULL. */
int tapestry_check_gradient(tapestry_scalar_fn __f, void *__context, int __n,
                            const double *__x, const double *__grad,
                            const struct tapestry_check_options *__options,
                            struct tapestry_check_result *__result);

/* Compares the m x n Jacobian jac (row-major: jac[i * n + j] = dy_i/dx_j)
 * with finite differences of f at x, column by column. Returns the number
 * of entries that disagree, or -1 as above. A sample (options->samples)
 * picks columns. */
int tapestry_check_jacobian(tapestry_vector_fn __f, void *__context, int __n,
                            int __m, const double *__x, const double *__jac,
                            const struct tapestry_check_options *__options,
                            struct tapestry_check_result *__result);

#ifdef __cplusplus
}
#endif

#endif /* TAPESTRY_GRADCHECK_H */
