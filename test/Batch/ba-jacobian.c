// The Jacobian of ADBench's bundle-adjustment reprojection residual (2
// residuals of 11 camera parameters, a 3-D point and a weight: a 2 x 15
// block per observation), from ADBench's data, by batched forward mode
// (width 8: two sweeps over the 15 inputs, the last half empty) and batched
// reverse mode (width 2: one sweep for both residuals), against central
// finite differences, on observations made distinct by perturbing the
// file's camera and point. Also through the runtime's Jacobian driver.
// RUN: %clang -O0 %s %tapestry_rt -lm -o %t0 && %t0 %S/Inputs/ba1_n49_m7776_p31843.txt | FileCheck %s
// RUN: %clang -O2 %s %tapestry_rt -lm -o %t2 && %t2 %S/Inputs/ba1_n49_m7776_p31843.txt | FileCheck %s
// RUN: %clang -O3 %s %tapestry_rt -lm -o %t3 && %t3 %S/Inputs/ba-test.txt | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include "tapestry/batch.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_width, enzyme_dupv, enzyme_dupnoneedv, enzyme_const;
void __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);

/* ADBench's reprojection error (ba.h): camera = rotation (angle-axis, 3),
   centre (3), focal length (1), principal point (2), radial distortion (2). */
enum { ROT = 0, C = 3, F = 6, X0 = 7, RAD = 9, NCAM = 11, NIN = 15 };

static void rodrigues_rotate_point(const double *rot, const double *X,
                                   double *out) {
  double sqtheta = rot[0] * rot[0] + rot[1] * rot[1] + rot[2] * rot[2];
  if (sqtheta != 0) {
    double theta = sqrt(sqtheta), costheta = cos(theta),
           sintheta = sin(theta), inv = 1 / theta;
    double w[3] = {rot[0] * inv, rot[1] * inv, rot[2] * inv};
    double wx[3] = {w[1] * X[2] - w[2] * X[1], w[2] * X[0] - w[0] * X[2],
                    w[0] * X[1] - w[1] * X[0]};
    double tmp = (w[0] * X[0] + w[1] * X[1] + w[2] * X[2]) * (1 - costheta);
    for (int i = 0; i < 3; i++)
      out[i] = X[i] * costheta + wx[i] * sintheta + w[i] * tmp;
  } else {
    double rx[3] = {rot[1] * X[2] - rot[2] * X[1],
                    rot[2] * X[0] - rot[0] * X[2],
                    rot[0] * X[1] - rot[1] * X[0]};
    for (int i = 0; i < 3; i++)
      out[i] = X[i] + rx[i];
  }
}

void reproj(const double *cam, const double *X, const double *w,
            const double *feat, double *err) {
  double Xo[3], Xcam[3];
  for (int i = 0; i < 3; i++)
    Xo[i] = X[i] - cam[C + i];
  rodrigues_rotate_point(&cam[ROT], Xo, Xcam);
  double p0 = Xcam[0] / Xcam[2], p1 = Xcam[1] / Xcam[2];
  double rsq = p0 * p0 + p1 * p1;
  double L = 1 + cam[RAD] * rsq + cam[RAD + 1] * rsq * rsq;
  double proj0 = p0 * L * cam[F] + cam[X0];
  double proj1 = p1 * L * cam[F] + cam[X0 + 1];
  err[0] = *w * (proj0 - feat[0]);
  err[1] = *w * (proj1 - feat[1]);
}

/* The 15 inputs packed as cam | X | w; feat is constant. */
static const double *feat_g;
static void reproj_packed(const double *p, double *err) {
  reproj(p, p + NCAM, p + NCAM + 3, feat_g, err);
}

enum { WF = 8, WR = 2 };

/* Batched forward: W directions in a block of lanes, each a packed
   15-vector; the camera, point and weight shadows are offsets into it. */
static void fwd_block(const double *p, const double *feat, double *dirs,
                      size_t sd, double *derr, size_t se) {
  double err[2];
  __enzyme_fwddiff((void *)reproj, enzyme_width, WF, enzyme_dupv, sd, p, dirs,
                   enzyme_dupv, sd, p + NCAM, dirs + NCAM, enzyme_dupv, sd,
                   p + NCAM + 3, dirs + NCAM + 3, enzyme_const, feat,
                   enzyme_dupnoneedv, se, err, derr);
}

static void rev_block(const double *p, const double *feat, double *grads,
                      size_t sg, double *seeds, size_t ss) {
  double err[2];
  __enzyme_autodiff((void *)reproj, enzyme_width, WR, enzyme_dupv, sg, p,
                    grads, enzyme_dupv, sg, p + NCAM, grads + NCAM,
                    enzyme_dupv, sg, p + NCAM + 3, grads + NCAM + 3,
                    enzyme_const, feat, enzyme_dupnoneedv, ss, err, seeds);
}

/* Sweeps for the runtime's driver (ctx: the observation's feature). */
static void drv_fwd(void *ctx, const double *x, double *y, double *dx,
                    size_t sx, double *dy, size_t sy) {
  (void)y;
  fwd_block(x, ctx, dx, sx, dy, sy);
}
static void drv_rev(void *ctx, const double *x, double *y, double *dx,
                    size_t sx, double *dy, size_t sy) {
  (void)y;
  rev_block(x, ctx, dx, sx, dy, sy);
}

static char label_[160];
#define LABEL(...) (snprintf(label_, sizeof label_, __VA_ARGS__), label_)
#define LANE(b, s, k) ((double *)((char *)(b) + (size_t)(k) * (s)))

int main(int argc, char **argv) {
  FILE *in = argc > 1 ? fopen(argv[1], "r") : NULL;
  if (!in) {
    printf("FAIL: cannot open the BA data file\n");
    return 1;
  }
  int n, m, np;
  double cam0[NCAM], X0p[3], w0, feat[2];
  int ok = fscanf(in, "%d %d %d", &n, &m, &np) == 3;
  for (int i = 0; i < NCAM; i++)
    ok &= fscanf(in, "%lf", &cam0[i]) == 1;
  for (int i = 0; i < 3; i++)
    ok &= fscanf(in, "%lf", &X0p[i]) == 1;
  ok &= fscanf(in, "%lf %lf %lf", &w0, &feat[0], &feat[1]) == 3;
  fclose(in);
  if (!ok) {
    printf("FAIL: malformed BA data file\n");
    return 1;
  }
  feat_g = feat;
  size_t sd, se, sg, ss;
  double *dirs = tapestry_batch_alloc(WF, NIN * sizeof(double), &sd);
  double *derr = tapestry_batch_alloc(WF, 2 * sizeof(double), &se);
  double *grads = tapestry_batch_alloc(WR, NIN * sizeof(double), &sg);
  double *seeds = tapestry_batch_alloc(WR, 2 * sizeof(double), &ss);
  for (int obs = 0; obs < 6; obs++) {
    /* A distinct observation: ADBench replicates one camera and point. */
    double p[NIN];
    memcpy(p, cam0, sizeof cam0);
    memcpy(p + NCAM, X0p, sizeof X0p);
    p[NCAM + 3] = w0;
    for (int i = 0; i < NIN; i++)
      p[i] *= 1 + 0.05 * sin(3.1 * obs + 1.7 * i);
    if (obs == 5)
      p[ROT] = p[ROT + 1] = p[ROT + 2] = 0; /* the other branch */

    double fd[2][NIN];
    for (int j = 0; j < NIN; j++) {
      double q[NIN], ep[2], em[2], h = 1e-6 * (1 + fabs(p[j]));
      memcpy(q, p, sizeof q);
      q[j] = p[j] + h;
      reproj_packed(q, ep);
      q[j] = p[j] - h;
      reproj_packed(q, em);
      fd[0][j] = (ep[0] - em[0]) / (2 * h);
      fd[1][j] = (ep[1] - em[1]) / (2 * h);
    }

    double jf[2][NIN], jr[2][NIN];
    for (int first = 0; first < NIN; first += WF) {
      tapestry_batch_seed_identity(dirs, WF, sd, NIN, first);
      fwd_block(p, feat, dirs, sd, derr, se);
      for (int k = 0; k < WF && first + k < NIN; k++) {
        jf[0][first + k] = LANE(derr, se, k)[0];
        jf[1][first + k] = LANE(derr, se, k)[1];
      }
    }
    tapestry_batch_seed_identity(seeds, WR, ss, 2, 0);
    tapestry_batch_zero(grads, WR, sg, NIN * sizeof(double));
    rev_block(p, feat, grads, sg, seeds, ss);
    for (int k = 0; k < WR; k++)
      memcpy(jr[k], LANE(grads, sg, k), sizeof jr[k]);

    double jd[2 * NIN];
    int sweeps = tapestry_jacobian(2, NIN, p, WR, TAPESTRY_JACOBIAN_AUTO,
                                   NULL, drv_rev, feat, jd);
    check_close(LABEL("obs %d: driver sweeps", obs), sweeps, 1, 0);
    double jdf[2 * NIN];
    sweeps = tapestry_jacobian(2, NIN, p, WF, TAPESTRY_JACOBIAN_FORWARD,
                               drv_fwd, NULL, feat, jdf);
    check_close(LABEL("obs %d: forward driver sweeps", obs), sweeps, 2, 0);
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < NIN; j++) {
        /* Finite differences of values in the hundreds: 1e-5 relative. */
        check_close(LABEL("obs %d: forward J[%d][%d] vs finite difference",
                          obs, i, j),
                    jf[i][j], fd[i][j], 1e-5);
        check_close(LABEL("obs %d: reverse J[%d][%d] vs finite difference",
                          obs, i, j),
                    jr[i][j], fd[i][j], 1e-5);
        check_close(LABEL("obs %d: reverse J[%d][%d] vs forward", obs, i, j),
                    jr[i][j], jf[i][j], 1e-12);
        check_close(LABEL("obs %d: driver J[%d][%d] vs forward", obs, i, j),
                    jd[i * NIN + j], jf[i][j], 1e-12);
        check_close(LABEL("obs %d: forward driver J[%d][%d]", obs, i, j),
                    jdf[i * NIN + j], jf[i][j], 0);
      }
  }
  tapestry_batch_free(dirs);
  tapestry_batch_free(derr);
  tapestry_batch_free(grads);
  tapestry_batch_free(seeds);
  return check_report();
}
