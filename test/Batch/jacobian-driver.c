// The runtime's batch helpers: tapestry_batch_alloc/zero/seed_identity and
// the dense-Jacobian driver tapestry_jacobian with sweeps written by
// TAPESTRY_DEFINE_JACOBIAN_SWEEPS, on a wide-short function (R^5 -> R^3:
// reverse in chunks of width 4, the last chunk partly empty) and a tall-thin
// one (R^3 -> R^7: forward), each also in the other mode, against central
// finite differences and the analytic Jacobian.
// RUN: %clang -O0 %s %tapestry_rt -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s %tapestry_rt -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s %tapestry_rt -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include "tapestry/batch.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Wide-short: y_i = sum_j sin((i + 1) x_j) x_{(j + i) % 5}, i < 3. */
void wide(const double *x, double *y) {
  for (int i = 0; i < 3; i++) {
    double s = 0;
    for (int j = 0; j < 5; j++)
      s += sin((i + 1) * x[j]) * x[(j + i) % 5];
    y[i] = s;
  }
}

/* Tall-thin: y_i = exp(0.1 i x_0) x_1 + x_2^2 / (i + 1), i < 7. */
void tall(const double *x, double *y) {
  for (int i = 0; i < 7; i++)
    y[i] = exp(0.1 * i * x[0]) * x[1] + x[2] * x[2] / (i + 1);
}

TAPESTRY_DEFINE_JACOBIAN_SWEEPS(wide4, wide, 4)
TAPESTRY_DEFINE_JACOBIAN_SWEEPS(tall4, tall, 4)
TAPESTRY_DEFINE_JACOBIAN_SWEEPS(tall2, tall, 2)

typedef void (*vecfn)(const double *, double *);

static void fd_jacobian(vecfn f, int m, int n, const double *x, double *jac) {
  double xp[8], yp[8], ym[8];
  for (int j = 0; j < n; j++) {
    memcpy(xp, x, n * sizeof *x);
    xp[j] = x[j] + 1e-6;
    f(xp, yp);
    xp[j] = x[j] - 1e-6;
    f(xp, ym);
    for (int i = 0; i < m; i++)
      jac[i * n + j] = (yp[i] - ym[i]) / 2e-6;
  }
}

static void compare(const char *what, int m, int n, const double *got,
                    const double *want, double tol) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      char label[128];
      snprintf(label, sizeof label, "%s J[%d][%d]", what, i, j);
      check_close(label, got[i * n + j], want[i * n + j], tol);
    }
}

static void test_helpers(void) {
  size_t stride = 0;
  double *b = tapestry_batch_alloc(3, 5 * sizeof(double), &stride);
  check_close("stride is 64-byte aligned", stride % 64, 0, 0);
  check_close("stride holds a lane", stride >= 5 * sizeof(double), 1, 0);
  check_close("block is 64-byte aligned", (uintptr_t)b % 64, 0, 0);
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < 5; i++)
      check_close("alloc zeroes",
                  ((double *)((char *)b + k * stride))[i], 0, 0);
  tapestry_batch_seed_identity(b, 3, stride, 5, 3);
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < 5; i++) {
      char label[64];
      snprintf(label, sizeof label, "identity lane %d [%d]", k, i);
      check_close(label, ((double *)((char *)b + k * stride))[i],
                  i == 3 + k ? 1 : 0, 0);
    }
  tapestry_batch_zero(b, 3, stride, 5 * sizeof(double));
  check_close("zero", ((double *)((char *)b + stride))[4], 0, 0);
  tapestry_batch_free(b);
  check_close("bad width", tapestry_batch_alloc(0, 8, NULL) == NULL, 1, 0);
}

int main(void) {
  test_helpers();
  double x5[5] = {0.3, -0.7, 1.1, 0.5, -0.2}, x3[3] = {0.4, -1.3, 0.8};
  double jac[64], ref[64];

  fd_jacobian(wide, 3, 5, x5, ref);
  int s = tapestry_jacobian(3, 5, x5, 4, TAPESTRY_JACOBIAN_AUTO, wide4_fwd,
                            wide4_rev, NULL, jac);
  check_close("wide: auto picks reverse, one sweep for 3 rows", s, 1, 0);
  compare("wide reverse vs finite difference", 3, 5, jac, ref, 1e-6);
  memset(jac, 0, sizeof jac);
  s = tapestry_jacobian(3, 5, x5, 4, TAPESTRY_JACOBIAN_FORWARD, wide4_fwd,
                        NULL, NULL, jac);
  check_close("wide forward: two sweeps for 5 columns", s, 2, 0);
  compare("wide forward vs finite difference", 3, 5, jac, ref, 1e-6);

  /* tall: analytic */
  for (int i = 0; i < 7; i++) {
    double e = exp(0.1 * i * x3[0]);
    ref[i * 3 + 0] = 0.1 * i * e * x3[1];
    ref[i * 3 + 1] = e;
    ref[i * 3 + 2] = 2 * x3[2] / (i + 1);
  }
  s = tapestry_jacobian(7, 3, x3, 4, TAPESTRY_JACOBIAN_AUTO, tall4_fwd,
                        tall4_rev, NULL, jac);
  check_close("tall: auto picks forward, one sweep for 3 columns", s, 1, 0);
  compare("tall forward vs analytic", 7, 3, jac, ref, 1e-12);
  memset(jac, 0, sizeof jac);
  s = tapestry_jacobian(7, 3, x3, 4, TAPESTRY_JACOBIAN_REVERSE, NULL,
                        tall4_rev, NULL, jac);
  check_close("tall reverse: two sweeps for 7 rows", s, 2, 0);
  compare("tall reverse vs analytic", 7, 3, jac, ref, 1e-12);
  memset(jac, 0, sizeof jac);
  s = tapestry_jacobian(7, 3, x3, 2, TAPESTRY_JACOBIAN_REVERSE, NULL,
                        tall2_rev, NULL, jac);
  check_close("tall reverse width 2: four sweeps", s, 4, 0);
  compare("tall reverse width 2 vs analytic", 7, 3, jac, ref, 1e-12);
  check_close("missing sweep is an error",
              tapestry_jacobian(7, 3, x3, 2, TAPESTRY_JACOBIAN_REVERSE,
                                tall2_fwd, NULL, NULL, jac),
              -1, 0);
  return check_report();
}
