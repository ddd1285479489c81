/*===- tapestry/batch.h - Helpers for batch (vector) mode -----------*- C -*-===
 *
 * Batch mode (enzyme_width W) carries W derivatives per value: W shadow
 * buffers per enzyme_dup array. These helpers keep the W buffers of one
 * array in a single block, lane k at base + k * stride bytes, which is what
 * enzyme_dupv / enzyme_dupnoneedv take:
 *
 *   size_t stride;
 *   double *dx = tapestry_batch_alloc(4, n * sizeof(double), &stride);
 *   tapestry_batch_seed_identity(dx, 4, stride, n, 0);  // e_0 .. e_3
 *   __enzyme_fwddiff_4((void *)f, enzyme_width, 4,
 *                      enzyme_dupv, stride, x, dx, enzyme_const, n);
 *   tapestry_batch_free(dx);
 *
 * tapestry_jacobian() computes a dense Jacobian with batched sweeps that the
 * caller writes (the width must be a compile-time constant in the request):
 * TAPESTRY_DEFINE_JACOBIAN_SWEEPS writes both for the common signature
 * `void f(const double *x, double *y)`.
 *
 *===----------------------------------------------------------------------===*/
#ifndef TAPESTRY_BATCH_H
#define TAPESTRY_BATCH_H

/* A system header, as the standard library's are: the warnings users turn
 * on (-Wreserved-identifier) are about their code, not this header's. */
#pragma GCC system_header

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The stride between lanes for buffers of `bytes_per_lane` bytes: rounded up
 * to a 64-byte cache line so lanes never share one, and never a multiple of
 * 4 KiB (lanes that far apart slow batched sweeps down through 4K aliasing:
 * prefer this layout to a plain double[W][n] with n a multiple of 512). */
size_t tapestry_batch_stride(size_t __bytes_per_lane);

/* One zeroed, 64-byte aligned block of `width` lanes of `bytes_per_lane`
 * bytes each; *stride (if not null) receives the lane stride. Null if out of
 * memory or width < 1. Release with tapestry_batch_free. */
void *tapestry_batch_alloc(int __width, size_t __bytes_per_lane,
                           size_t *__stride);
void tapestry_batch_free(void *__base);

/* Zeroes the first `bytes_per_lane` bytes of every lane. */
void tapestry_batch_zero(void *__base, int __width, size_t __stride,
                         size_t __bytes_per_lane);

/* Identity directions: zeroes `n` doubles in every lane and sets element
 * first + k of lane k to 1 (lanes past n stay zero). Seeds W columns of a
 * Jacobian (forward) or W rows (reverse) at a time. */
void tapestry_batch_seed_identity(double *__base, int __width, size_t __stride,
                                  size_t __n, size_t __first);

/* One batched sweep of a function y = f(x), x in R^n, y in R^m, at width
 * `width` (lanes of the shadow blocks at dx + k * dx_stride bytes and
 * dy + k * dy_stride bytes). y is scratch space of m doubles for the
 * primal's output.
 *   forward: dx holds W input directions; write the W output tangents to dy.
 *   reverse: dy holds W output seeds (the sweep may consume them); add the
 *            W input adjoints to dx (zeroed by the driver). */
typedef void (*tapestry_sweep_fn)(void *__context, const double *__x,
                                  double *__y, double *__dx, size_t __dx_stride,
                                  double *__dy, size_t __dy_stride);

enum tapestry_jacobian_mode {
  TAPESTRY_JACOBIAN_AUTO = 0, /* forward if n <= m (tall-thin), else reverse */
  TAPESTRY_JACOBIAN_FORWARD = 1,
  TAPESTRY_JACOBIAN_REVERSE = 2
};

/* The dense m x n Jacobian of f at x, row-major into jac (jac[i * n + j] =
 * dy_i / dx_j), in chunks of `width` directions: ceil(n / width) forward
 * sweeps or ceil(m / width) reverse sweeps. `width` must be the width the
 * sweeps were compiled with. Either sweep may be null if the mode does not
 * need it. Returns the number of sweeps run, or -1 on bad arguments or out
 * of memory. */
int tapestry_jacobian(int __m, int __n, const double *__x, int __width,
                      enum tapestry_jacobian_mode __mode,
                      tapestry_sweep_fn __fwd, tapestry_sweep_fn __rev,
                      void *__context, double *__jac);

#ifdef __cplusplus
}
#endif

#ifdef __cplusplus
#define TAPESTRY_EXTERN_C extern "C"
#else
#define TAPESTRY_EXTERN_C extern
#endif

/* Defines `static void NAME_fwd(...)` and `NAME_rev(...)`, tapestry_sweep_fn
 * sweeps of width W for `void F(const double *x, double *y)`. The entry
 * points they call are declared here with names of their own. */
#define TAPESTRY_DEFINE_JACOBIAN_SWEEPS(_NAME, _F, _W)                         \
  TAPESTRY_EXTERN_C int enzyme_width, enzyme_dupv, enzyme_dupnoneedv;          \
  TAPESTRY_EXTERN_C void __enzyme_fwddiff_tapestry_##_NAME(void *, ...);       \
  TAPESTRY_EXTERN_C void __enzyme_autodiff_tapestry_##_NAME(void *, ...);      \
  static void _NAME##_fwd(void *__context, const double *__x, double *__y,     \
                          double *__dx, size_t __dx_stride, double *__dy,      \
                          size_t __dy_stride) {                                \
    (void)__context;                                                           \
    __enzyme_fwddiff_tapestry_##_NAME(                                         \
        (void *)_F, enzyme_width, _W, enzyme_dupv, __dx_stride, __x, __dx,     \
        enzyme_dupnoneedv, __dy_stride, __y, __dy);                            \
  }                                                                            \
  static void _NAME##_rev(void *__context, const double *__x, double *__y,     \
                          double *__dx, size_t __dx_stride, double *__dy,      \
                          size_t __dy_stride) {                                \
    (void)__context;                                                           \
    __enzyme_autodiff_tapestry_##_NAME(                                        \
        (void *)_F, enzyme_width, _W, enzyme_dupv, __dx_stride, __x, __dx,     \
        enzyme_dupnoneedv, __dy_stride, __y, __dy);                            \
  }

#endif /* TAPESTRY_BATCH_H */
