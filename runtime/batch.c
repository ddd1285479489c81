/*===- batch.c - Batch shadows and the dense-Jacobian driver ----------------===
 *
 * Implements tapestry/batch.h: lane blocks for enzyme_dupv (allocation with a
 * stride that avoids 4 KiB aliasing, zeroing, seeding identity directions) and
 * tapestry_jacobian, which fills a dense Jacobian in chunks of the sweeps'
 * width. No LLVM and no plugin here: the batched sweeps are compiled in the
 * user's program (the width is part of each request) and handed to the driver.
 *
 *===----------------------------------------------------------------------===*/
#include "tapestry/batch.h"

#include <stdlib.h>
#include <string.h>

enum { LaneAlign = 64, PageBytes = 4096 };

size_t tapestry_batch_stride(size_t bytes_per_lane) {
  size_t b = bytes_per_lane ? bytes_per_lane : 1;
  size_t s = (b + LaneAlign - 1) / LaneAlign * LaneAlign;
  /* Lanes a multiple of 4 KiB apart make a batched sweep's per-lane loads
   * and stores of the same element falsely depend on each other (4K
   * aliasing in the store buffer): 4x slower at width 8 on a matvec. */
  if (s % PageBytes == 0)
    s += LaneAlign;
  return s;
}

void *tapestry_batch_alloc(int width, size_t bytes_per_lane, size_t *stride) {
  if (width < 1)
    return NULL;
  size_t s = tapestry_batch_stride(bytes_per_lane);
  if (s > (size_t)-1 / (size_t)width)
    return NULL;
  void *base = aligned_alloc(LaneAlign, s * (size_t)width);
  if (!base)
    return NULL;
  memset(base, 0, s * (size_t)width);
  if (stride)
    *stride = s;
  return base;
}

void tapestry_batch_free(void *base) { free(base); }

void tapestry_batch_zero(void *base, int width, size_t stride,
                         size_t bytes_per_lane) {
  for (int k = 0; k < width; ++k)
    memset((char *)base + (size_t)k * stride, 0, bytes_per_lane);
}

void tapestry_batch_seed_identity(double *base, int width, size_t stride,
                                  size_t n, size_t first) {
  tapestry_batch_zero(base, width, stride, n * sizeof(double));
  for (int k = 0; k < width; ++k)
    if (first + (size_t)k < n)
      ((double *)((char *)base + (size_t)k * stride))[first + k] = 1.0;
}

static double *lane(double *base, size_t stride, int k) {
  return (double *)((char *)base + (size_t)k * stride);
}

int tapestry_jacobian(int m, int n, const double *x, int width,
                      enum tapestry_jacobian_mode mode, tapestry_sweep_fn fwd,
                      tapestry_sweep_fn rev, void *ctx, double *jac) {
  if (m < 1 || n < 1 || width < 1 || !x || !jac)
    return -1;
  int forward = mode == TAPESTRY_JACOBIAN_FORWARD ||
                (mode == TAPESTRY_JACOBIAN_AUTO && n <= m);
  if ((forward && !fwd) || (!forward && !rev))
    return -1;
  size_t sx, sy;
  double *dx = tapestry_batch_alloc(width, (size_t)n * sizeof(double), &sx);
  double *dy = tapestry_batch_alloc(width, (size_t)m * sizeof(double), &sy);
  double *y = malloc((size_t)m * sizeof(double));
  int sweeps = 0;
  if (!dx || !dy || !y) {
    sweeps = -1;
    goto done;
  }
  if (forward) {
    /* Columns first .. first + width - 1 of the Jacobian per sweep. */
    for (int first = 0; first < n; first += width, ++sweeps) {
      tapestry_batch_seed_identity(dx, width, sx, (size_t)n, (size_t)first);
      tapestry_batch_zero(dy, width, sy, (size_t)m * sizeof(double));
      fwd(ctx, x, y, dx, sx, dy, sy);
      for (int k = 0; k < width && first + k < n; ++k) {
        const double *col = lane(dy, sy, k);
        for (int i = 0; i < m; ++i)
          jac[(size_t)i * n + first + k] = col[i];
      }
    }
  } else {
    /* Rows first .. first + width - 1 per sweep. */
    for (int first = 0; first < m; first += width, ++sweeps) {
      tapestry_batch_seed_identity(dy, width, sy, (size_t)m, (size_t)first);
      tapestry_batch_zero(dx, width, sx, (size_t)n * sizeof(double));
      rev(ctx, x, y, dx, sx, dy, sy);
      for (int k = 0; k < width && first + k < m; ++k)
        memcpy(jac + (size_t)(first + k) * n, lane(dx, sx, k),
               (size_t)n * sizeof(double));
    }
  }
done:
  free(y);
  tapestry_batch_free(dy);
  tapestry_batch_free(dx);
  return sweeps;
}
