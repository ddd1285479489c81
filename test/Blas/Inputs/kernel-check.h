/* KERNEL(name, NP) defines, for a kernel `double name(double *p)` of NP
 * parameters, its evaluation on a copy of p, its gradient (reverse mode), its
 * tangent along parameter j (forward mode), and name_check(seed), which
 * compares both with central finite differences at a random point
 * (Integration/Inputs/gradcheck.h, which the test includes first, with the
 * enzyme_dup/enzyme_const markers and the __enzyme_* declarations). */
#ifndef TAPESTRY_TEST_BLAS_KERNEL_CHECK_H
#define TAPESTRY_TEST_BLAS_KERNEL_CHECK_H

#include <stdlib.h>

#define KERNEL(name, NP)                                                       \
  static double name##_eval(const double *p) {                                 \
    double *q = copy_of(p, NP);                                                \
    double r = name(q);                                                        \
    free(q);                                                                   \
    return r;                                                                  \
  }                                                                            \
  static void name##_grad(const double *p, double *g) {                        \
    double *q = copy_of(p, NP);                                                \
    __enzyme_autodiff((void *)name, enzyme_dup, q, g);                         \
    free(q);                                                                   \
  }                                                                            \
  static double name##_tangent(const double *p, int j) {                       \
    double *q = copy_of(p, NP), *t = unit_slice(j, 0, NP);                     \
    double r = __enzyme_fwddiff((void *)name, enzyme_dup, q, t);               \
    free(q);                                                                   \
    free(t);                                                                   \
    return r;                                                                  \
  }                                                                            \
  static void name##_check(int seed) {                                         \
    double p[NP];                                                              \
    fill(p, NP, -1.2, 1.3, seed);                                              \
    compare(#name, NP, p, name##_eval, name##_grad, name##_tangent);           \
  }

#endif
