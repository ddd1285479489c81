/*===- enzyme/fixed_point.h - Enzyme's fixed-point entry points -----*- C -*-===
 *
 * Enzyme's programs include this header for __enzyme_fixed_point (a loop
 * `int64_t i = 0; while (step(i++, args...));` whose adjoint Enzyme
 * iterates to convergence at the converged state) and
 * __enzyme_set_fixed_point (the same, marked from inside a loop), with the
 * markers below. Tapestry runs the loop and differentiates its iterations,
 * which for an iteration run to convergence gives the derivative of its
 * fixed point, with a tape that grows with the number of iterations; a
 * control function (enzyme_fp_control) is an error
 * (docs/enzyme-compatibility.md).
 *
 *===----------------------------------------------------------------------===*/
#ifndef TAPESTRY_ENZYME_FIXED_POINT_H
#define TAPESTRY_ENZYME_FIXED_POINT_H

/* A system header, as the standard library's are: the warnings users turn
 * on (-Wreserved-identifier) are about their code, not this header's. */
#pragma GCC system_header

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

extern int enzyme_fp_state;
extern int enzyme_fp_reduction;
extern int enzyme_fp_max_iters;
extern int enzyme_fp_control;
extern int enzyme_checkpoint_region;

void __enzyme_fixed_point(void *__step, ...);
void __enzyme_set_fixed_point(double __reduction, int64_t __max_iters,
                              void *__control, ...);

#ifdef __cplusplus
}
#endif

#endif /* TAPESTRY_ENZYME_FIXED_POINT_H */
