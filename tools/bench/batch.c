/* Batch mode: one sweep of width W against W scalar sweeps, forward and
 * reverse, on a dense matrix-vector product y = A x (n = 512, the Jacobian
 * dy/dx is A), checked against A itself; and the Jacobian of ADBench's BA
 * reprojection residual (2 x 15 per observation, for every observation of
 * the file given as argv[1], if any) by forward sweeps of width 8 against
 * 15 scalar sweeps and a reverse sweep of width 2 against 2, checked
 * against each other. Prints, per mode and width,
 *   BATCH <kernel> width=<W> batched_ms=<t> scalar_ms=<t> ratio=<r>
 * (ratio = batched / W scalar sweeps; below 1 batch mode wins).  batch */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "tapestry/batch.h"

extern int enzyme_width, enzyme_dup, enzyme_dupnoneed, enzyme_dupv,
    enzyme_dupnoneedv, enzyme_const;
void __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);

void matvec(const double *__restrict A, const double *__restrict x,
            double *__restrict y, int n) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < n; j++)
      s += A[i * n + j] * x[j];
    y[i] = s;
  }
}

enum { N = 512, MaxW = 8, Reps = 7 };
/* y is not static: a program that computes y = A x uses it, and a write-only
 * static array would let the optimiser delete the primal pass from every
 * sweep, which is exactly the work batch mode shares between lanes. */
static double A[N * N], x[N];
double y[N];
/* Lane k of a shadow block at base + k * stride (tapestry/batch.h). */
static double *dx, *dy;
static size_t stride;
#define LANE(d, k) ((double *)((char *)(d) + (k) * stride))
static int bad;

static void seed(double *d, int w) {
  tapestry_batch_zero(d, MaxW, stride, N * sizeof(double));
  for (int k = 0; k < w; k++)
    LANE(d, k)[3 * k + 1] = 1;
}

/* Lane k of a forward sweep seeded with e_{3k+1} is column 3k+1 of A; of a
 * reverse sweep, row 3k+1. */
static void check(const char *what, double *d, int w, int column) {
  for (int k = 0; k < w; k++)
    for (int i = 0; i < N; i += 37) {
      double want = column ? A[i * N + 3 * k + 1] : A[(3 * k + 1) * N + i];
      if (fabs(LANE(d, k)[i] - want) > 1e-12) {
        printf("%s width %d lane %d [%d]: got %g want %g\n", what, w, k, i,
               LANE(d, k)[i], want);
        bad++;
        return;
      }
    }
}

/* Each sweep is a function of its own, as a caller sweeping directions
 * would have it, so the optimiser cannot merge the W scalar sweeps' primal
 * passes (they compute the same y) and the timing measures the derivative
 * code. */
#define BATCHED(W)                                                             \
  __attribute__((noinline)) static void fwd##W(void) {                         \
    __enzyme_fwddiff((void *)matvec, enzyme_width, W, enzyme_const, A,         \
                     enzyme_dupv, stride, x, dx, enzyme_dupv, stride, y, dy,   \
                     enzyme_const, N);                                         \
  }                                                                            \
  __attribute__((noinline)) static void rev##W(void) {                         \
    __enzyme_autodiff((void *)matvec, enzyme_width, W, enzyme_const, A,        \
                      enzyme_dupv, stride, x, dx, enzyme_dupv, stride, y, dy,  \
                      enzyme_const, N);                                        \
  }
BATCHED(2)
BATCHED(4)
BATCHED(8)

__attribute__((noinline)) static void fwd1(int k) {
  __enzyme_fwddiff((void *)matvec, enzyme_const, A, enzyme_dup, x, LANE(dx, k),
                   enzyme_dup, y, LANE(dy, k), enzyme_const, N);
}
__attribute__((noinline)) static void rev1(int k) {
  __enzyme_autodiff((void *)matvec, enzyme_const, A, enzyme_dup, x, LANE(dx, k),
                    enzyme_dup, y, LANE(dy, k), enzyme_const, N);
}

static void report(const char *kernel, int w, double batched, double scalar) {
  printf("BATCH %s width=%d batched_ms=%.4f scalar_ms=%.4f ratio=%.2f\n",
         kernel, w, batched, scalar, batched / scalar);
}

#define BENCH_WIDTH(W)                                                         \
  do {                                                                         \
    double tb = BENCH_BEST_MS(Reps, {                                          \
      seed(dx, W);                                                             \
      fwd##W();                                                                \
    });                                                                        \
    check("forward batched", dy, W, 1);                                        \
    double ts = BENCH_BEST_MS(Reps, {                                          \
      seed(dx, W);                                                             \
      for (int k = 0; k < W; k++)                                              \
        fwd1(k);                                                               \
    });                                                                        \
    check("forward scalar", dy, W, 1);                                         \
    report("matvec_fwd_n512", W, tb, ts);                                      \
    tb = BENCH_BEST_MS(Reps, {                                                 \
      seed(dy, W);                                                             \
      tapestry_batch_zero(dx, MaxW, stride, N * sizeof(double));               \
      rev##W();                                                                \
    });                                                                        \
    check("reverse batched", dx, W, 0);                                        \
    ts = BENCH_BEST_MS(Reps, {                                                 \
      seed(dy, W);                                                             \
      tapestry_batch_zero(dx, MaxW, stride, N * sizeof(double));               \
      for (int k = 0; k < W; k++)                                              \
        rev1(k);                                                               \
    });                                                                        \
    check("reverse scalar", dx, W, 0);                                         \
    report("matvec_rev_n512", W, tb, ts);                                      \
  } while (0)

/* ---- BA reprojection (ADBench ba.h) ----------------------------------- */

enum { ROT = 0, CC = 3, FOC = 6, PP = 7, RAD = 9, NCAM = 11, NIN = 15 };

static void rodrigues(const double *rot, const double *X, double *out) {
  double sqtheta = rot[0] * rot[0] + rot[1] * rot[1] + rot[2] * rot[2];
  if (sqtheta != 0) {
    double theta = sqrt(sqtheta), c = cos(theta), s = sin(theta),
           inv = 1 / theta;
    double w[3] = {rot[0] * inv, rot[1] * inv, rot[2] * inv};
    double wx[3] = {w[1] * X[2] - w[2] * X[1], w[2] * X[0] - w[0] * X[2],
                    w[0] * X[1] - w[1] * X[0]};
    double tmp = (w[0] * X[0] + w[1] * X[1] + w[2] * X[2]) * (1 - c);
    for (int i = 0; i < 3; i++)
      out[i] = X[i] * c + wx[i] * s + w[i] * tmp;
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
  double Xo[3], Xc[3];
  for (int i = 0; i < 3; i++)
    Xo[i] = X[i] - cam[CC + i];
  rodrigues(&cam[ROT], Xo, Xc);
  double p0 = Xc[0] / Xc[2], p1 = Xc[1] / Xc[2];
  double rsq = p0 * p0 + p1 * p1;
  double L = 1 + cam[RAD] * rsq + cam[RAD + 1] * rsq * rsq;
  err[0] = *w * (p0 * L * cam[FOC] + cam[PP] - feat[0]);
  err[1] = *w * (p1 * L * cam[FOC] + cam[PP + 1] - feat[1]);
}

static double *baP, baFeat[2], *jacB, *jacS;
static int baM;
static double *bdirs[2], *bderr, *bgrads, *bseeds;
static size_t sdir, serr, sgrad, sseed;

__attribute__((noinline)) static void ba_fwd8(void) {
  for (int o = 0; o < baM; o++) {
    double *p = baP + (size_t)o * NIN, err[2];
    for (int c = 0; c < 2; c++) {
      __enzyme_fwddiff((void *)reproj, enzyme_width, 8, enzyme_dupv, sdir, p,
                       bdirs[c], enzyme_dupv, sdir, p + NCAM, bdirs[c] + NCAM,
                       enzyme_dupv, sdir, p + NCAM + 3, bdirs[c] + NCAM + 3,
                       enzyme_const, baFeat, enzyme_dupnoneedv, serr, err,
                       bderr);
      for (int k = 0; k < 8 && 8 * c + k < NIN; k++)
        for (int i = 0; i < 2; i++)
          jacB[(size_t)o * 30 + i * NIN + 8 * c + k] =
              ((double *)((char *)bderr + k * serr))[i];
    }
  }
}

__attribute__((noinline)) static void ba_fwd1(void) {
  double e[NIN] = {0};
  for (int o = 0; o < baM; o++) {
    double *p = baP + (size_t)o * NIN, err[2], derr[2];
    for (int j = 0; j < NIN; j++) {
      e[j] = 1;
      __enzyme_fwddiff((void *)reproj, enzyme_dup, p, e, enzyme_dup, p + NCAM,
                       e + NCAM, enzyme_dup, p + NCAM + 3, e + NCAM + 3,
                       enzyme_const, baFeat, enzyme_dupnoneed, err, derr);
      e[j] = 0;
      jacS[(size_t)o * 30 + j] = derr[0];
      jacS[(size_t)o * 30 + NIN + j] = derr[1];
    }
  }
}

__attribute__((noinline)) static void ba_rev2(void) {
  for (int o = 0; o < baM; o++) {
    double *p = baP + (size_t)o * NIN, err[2];
    tapestry_batch_seed_identity(bseeds, 2, sseed, 2, 0);
    tapestry_batch_zero(bgrads, 2, sgrad, NIN * sizeof(double));
    __enzyme_autodiff((void *)reproj, enzyme_width, 2, enzyme_dupv, sgrad, p,
                      bgrads, enzyme_dupv, sgrad, p + NCAM, bgrads + NCAM,
                      enzyme_dupv, sgrad, p + NCAM + 3, bgrads + NCAM + 3,
                      enzyme_const, baFeat, enzyme_dupnoneedv, sseed, err,
                      bseeds);
    for (int i = 0; i < 2; i++)
      memcpy(jacB + (size_t)o * 30 + i * NIN,
             (char *)bgrads + (size_t)i * sgrad, NIN * sizeof(double));
  }
}

__attribute__((noinline)) static void ba_rev1(void) {
  for (int o = 0; o < baM; o++) {
    double *p = baP + (size_t)o * NIN, err[2];
    for (int i = 0; i < 2; i++) {
      double g[NIN] = {0}, seed2[2] = {0};
      seed2[i] = 1;
      __enzyme_autodiff((void *)reproj, enzyme_dup, p, g, enzyme_dup, p + NCAM,
                        g + NCAM, enzyme_dup, p + NCAM + 3, g + NCAM + 3,
                        enzyme_const, baFeat, enzyme_dupnoneed, err, seed2);
      memcpy(jacS + (size_t)o * 30 + i * NIN, g, sizeof g);
    }
  }
}

static void check_ba(const char *what) {
  for (size_t i = 0; i < (size_t)baM * 30; i++)
    if (fabs(jacB[i] - jacS[i]) > 1e-9 * (1 + fabs(jacS[i]))) {
      printf("%s: entry %zu: batched %g, scalar %g\n", what, i, jacB[i],
             jacS[i]);
      bad++;
      return;
    }
}

static void bench_ba(const char *path) {
  FILE *in = fopen(path, "r");
  int n, m, np, ok = in != NULL;
  double base[NIN];
  ok = ok && fscanf(in, "%d %d %d", &n, &m, &np) == 3;
  for (int i = 0; ok && i < NIN; i++)
    ok = fscanf(in, "%lf", &base[i]) == 1;
  ok = ok && fscanf(in, "%lf %lf", &baFeat[0], &baFeat[1]) == 2;
  if (in)
    fclose(in);
  if (!ok) {
    printf("cannot read BA data %s\n", path);
    bad++;
    return;
  }
  (void)n, (void)np;
  baM = m;
  baP = malloc(sizeof(double) * NIN * m);
  jacB = malloc(sizeof(double) * 30 * m);
  jacS = malloc(sizeof(double) * 30 * m);
  /* ADBench replicates one camera and point; make each observation differ. */
  for (int o = 0; o < m; o++)
    for (int i = 0; i < NIN; i++)
      baP[(size_t)o * NIN + i] = base[i] * (1 + 1e-3 * sin(o + 1.7 * i));
  for (int c = 0; c < 2; c++) {
    bdirs[c] = tapestry_batch_alloc(8, NIN * sizeof(double), &sdir);
    tapestry_batch_seed_identity(bdirs[c], 8, sdir, NIN, 8 * c);
  }
  bderr = tapestry_batch_alloc(8, 2 * sizeof(double), &serr);
  bgrads = tapestry_batch_alloc(2, NIN * sizeof(double), &sgrad);
  bseeds = tapestry_batch_alloc(2, 2 * sizeof(double), &sseed);
  char name[64];
  snprintf(name, sizeof name, "ba_jacobian_fwd_m%d", m);
  double tb = BENCH_BEST_MS(Reps, ba_fwd8());
  double ts = BENCH_BEST_MS(Reps, ba_fwd1());
  check_ba("BA forward");
  /* The whole Jacobian: 2 sweeps of width 8 against 15 scalar sweeps. */
  report(name, 8, tb, ts);
  snprintf(name, sizeof name, "ba_jacobian_rev_m%d", m);
  tb = BENCH_BEST_MS(Reps, ba_rev2());
  ts = BENCH_BEST_MS(Reps, ba_rev1());
  check_ba("BA reverse");
  report(name, 2, tb, ts);
  for (int c = 0; c < 2; c++)
    tapestry_batch_free(bdirs[c]);
  tapestry_batch_free(bderr);
  tapestry_batch_free(bgrads);
  tapestry_batch_free(bseeds);
  free(baP);
  free(jacB);
  free(jacS);
}

int main(int argc, char **argv) {
  for (int i = 0; i < N * N; i++)
    A[i] = sin(0.001 * i);
  for (int i = 0; i < N; i++)
    x[i] = cos(0.01 * i);
  dx = tapestry_batch_alloc(MaxW, N * sizeof(double), &stride);
  dy = tapestry_batch_alloc(MaxW, N * sizeof(double), NULL);
  BENCH_WIDTH(2);
  BENCH_WIDTH(4);
  BENCH_WIDTH(8);
  if (argc > 1)
    bench_ba(argv[1]);
  tapestry_batch_free(dx);
  tapestry_batch_free(dy);
  printf("%s\n", bad ? "JACOBIAN CHECK FAILED" : "jacobian check OK");
  return bad != 0;
}
