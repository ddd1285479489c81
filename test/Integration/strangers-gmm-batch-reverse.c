// A statistician's program: a one-dimensional Gaussian mixture, parameters
// packed as [means | log standard deviations | mixing logits], the
// log-likelihood of each observation written to an output array through a
// stable log-sum-exp. The total log-likelihood's gradient comes from plain
// reverse mode; the per-observation gradients (the rows of the Jacobian,
// as a score test or a Fisher-information estimate needs) from one batched
// reverse sweep, enzyme_width 4, the output shadows seeded with the unit
// vectors and both shadows given with enzyme_dupv (a byte stride between
// lanes). Float parameters are differentiated too (a float copy of the
// model). Expected: the analytic score of a mixture, from the
// responsibilities r_ik:
//   d/dmu_k = r_ik (x_i - mu_k) / s_k^2,
//   d/dlog s_k = r_ik ((x_i - mu_k)^2 / s_k^2 - 1),
//   d/dlogit_k = r_ik - pi_k.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_dupv, enzyme_const, enzyme_width;
void __enzyme_autodiff(void *, ...);

#define K 3
#define NOBS 4

static const double LOG_SQRT_2PI = 0.91893853320467274178;

void loglik_each(const double *theta, const double *x, double *out, int n) {
  const double *mu = theta, *logs = theta + K, *logit = theta + 2 * K;
  double lmax = logit[0];
  for (int k = 1; k < K; k++)
    lmax = fmax(lmax, logit[k]);
  double z = 0;
  for (int k = 0; k < K; k++)
    z += exp(logit[k] - lmax);
  double logz = lmax + log(z);
  for (int i = 0; i < n; i++) {
    double terms[K], m = -INFINITY;
    for (int k = 0; k < K; k++) {
      double u = (x[i] - mu[k]) * exp(-logs[k]);
      terms[k] = logit[k] - logz - logs[k] - LOG_SQRT_2PI - 0.5 * u * u;
      m = fmax(m, terms[k]);
    }
    double s = 0;
    for (int k = 0; k < K; k++)
      s += exp(terms[k] - m);
    out[i] = m + log(s);
  }
}

double loglik_total(const double *theta, const double *x, int n) {
  double out[NOBS];
  loglik_each(theta, x, out, n);
  double t = 0;
  for (int i = 0; i < n; i++)
    t += out[i];
  return t;
}

float loglik_total_f(const float *theta, const float *x, int n) {
  float z = 0;
  for (int k = 0; k < K; k++)
    z += expf(theta[2 * K + k]);
  float t = -n * (logf(z) + (float)LOG_SQRT_2PI);
  for (int i = 0; i < n; i++) {
    float lse = 0;
    for (int k = 0; k < K; k++) {
      float u = (x[i] - theta[k]) / expf(theta[K + k]);
      lse += expf(theta[2 * K + k]) * expf(-0.5f * u * u) / expf(theta[K + k]);
    }
    t += logf(lse);
  }
  return t;
}

/* score[i][p] = d log p(x_i) / d theta_p */
static void analytic_score(const double *theta, const double *x,
                           double score[NOBS][3 * K]) {
  double pi[K], z = 0;
  for (int k = 0; k < K; k++)
    z += exp(theta[2 * K + k]);
  for (int k = 0; k < K; k++)
    pi[k] = exp(theta[2 * K + k]) / z;
  for (int i = 0; i < NOBS; i++) {
    double dens[K], tot = 0;
    for (int k = 0; k < K; k++) {
      double s = exp(theta[K + k]), u = (x[i] - theta[k]) / s;
      dens[k] = pi[k] * exp(-0.5 * u * u) / (s * sqrt(2 * M_PI));
      tot += dens[k];
    }
    for (int k = 0; k < K; k++) {
      double r = dens[k] / tot, s = exp(theta[K + k]);
      double d = x[i] - theta[k];
      score[i][k] = r * d / (s * s);
      score[i][K + k] = r * (d * d / (s * s) - 1);
      score[i][2 * K + k] = r - pi[k];
    }
  }
}

int main(void) {
  double theta[3 * K] = {-1.2, 0.3, 2.1, -0.4, 0.1, -0.2, 0.5, -0.3, 0.2};
  double x[NOBS] = {-1.5, 0.0, 0.9, 2.6};
  double score[NOBS][3 * K];
  analytic_score(theta, x, score);

  double g[3 * K] = {0};
  __enzyme_autodiff((void *)loglik_total, enzyme_dup, theta, g, enzyme_const,
                    x, enzyme_const, NOBS);
  for (int p = 0; p < 3 * K; p++) {
    double want = 0;
    for (int i = 0; i < NOBS; i++)
      want += score[i][p];
    char name[32];
    snprintf(name, sizeof name, "total score[%d]", p);
    check_close(name, g[p], want, 1e-12);
  }

  /* Lane i seeds out[i]: theta's shadow in lane i is row i. */
  double out[NOBS], dout[NOBS][NOBS] = {{0}}, rows[NOBS][3 * K] = {{0}};
  for (int i = 0; i < NOBS; i++)
    dout[i][i] = 1;
  __enzyme_autodiff((void *)loglik_each, enzyme_width, NOBS, enzyme_dupv,
                    sizeof rows[0], theta, rows, enzyme_const, x, enzyme_dupv,
                    sizeof dout[0], out, dout, enzyme_const, NOBS);
  for (int i = 0; i < NOBS; i++)
    for (int p = 0; p < 3 * K; p++) {
      char name[32];
      snprintf(name, sizeof name, "score[%d][%d]", i, p);
      check_close(name, rows[i][p], score[i][p], 1e-12);
    }
  for (int i = 0; i < NOBS; i++)
    for (int j = 0; j < NOBS; j++)
      check_close("output seed consumed", dout[i][j], 0, 0);

  float tf[3 * K], xf[NOBS], gf[3 * K] = {0};
  for (int p = 0; p < 3 * K; p++)
    tf[p] = (float)theta[p];
  for (int i = 0; i < NOBS; i++)
    xf[i] = (float)x[i];
  __enzyme_autodiff((void *)loglik_total_f, enzyme_dup, tf, gf, enzyme_const,
                    xf, enzyme_const, NOBS);
  for (int p = 0; p < 3 * K; p++) {
    double want = 0;
    for (int i = 0; i < NOBS; i++)
      want += score[i][p];
    char name[32];
    snprintf(name, sizeof name, "float total score[%d]", p);
    check_close(name, gf[p], want, 2e-5);
  }
  return check_report();
}
