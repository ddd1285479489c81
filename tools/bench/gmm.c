/* ADBench's GMM objective (Gaussian mixture with a Wishart prior), as in the
 * ADBench C reference, on ../shared/data/adbench/gmm. Gradient w.r.t.
 * alphas, means and icf (log-diagonal q and lower triangle l), checked
 * against central finite differences on a sample of coordinates.
 *   gmm <file> */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

static double log_sum_exp(int n, const double *x) {
  double mx = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > mx)
      mx = x[i];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(x[i] - mx);
  return log(s) + mx;
}

static double log_gamma_distrib(double a, int p) {
  double out = 0.25 * p * (p - 1) * log(M_PI);
  for (int j = 1; j <= p; j++)
    out += lgamma(a + 0.5 * (1 - j));
  return out;
}

/* Restrict-qualified like ADBench's C++ reference: without it the store
 * to *err may alias the parameters, and their loads must be cached. */
void gmm_objective(int d, int k, int n, const double *restrict alphas,
                   const double *restrict means, const double *restrict icf,
                   const double *restrict x, double gamma, int m,
                   double *restrict err) {
  int icf_sz = d * (d + 1) / 2;
  double *qdiags = malloc(sizeof(double) * d * k);
  double *sum_qs = malloc(sizeof(double) * k);
  double *xc = malloc(sizeof(double) * d);
  double *qxc = malloc(sizeof(double) * d);
  double *main_term = malloc(sizeof(double) * k);
  for (int ik = 0; ik < k; ik++) {
    sum_qs[ik] = 0;
    for (int id = 0; id < d; id++) {
      double q = icf[ik * icf_sz + id];
      sum_qs[ik] += q;
      qdiags[ik * d + id] = exp(q);
    }
  }
  double slse = 0;
  for (int ix = 0; ix < n; ix++) {
    for (int ik = 0; ik < k; ik++) {
      for (int id = 0; id < d; id++)
        xc[id] = x[ix * d + id] - means[ik * d + id];
      const double *qd = &qdiags[ik * d], *lt = &icf[ik * icf_sz + d];
      for (int id = 0; id < d; id++)
        qxc[id] = qd[id] * xc[id];
      int li = 0;
      for (int i = 0; i < d; i++)
        for (int j = i + 1; j < d; j++)
          qxc[j] += lt[li++] * xc[i];
      double sq = 0;
      for (int id = 0; id < d; id++)
        sq += qxc[id] * qxc[id];
      main_term[ik] = alphas[ik] + sum_qs[ik] - 0.5 * sq;
    }
    slse += log_sum_exp(k, main_term);
  }
  double lse_alphas = log_sum_exp(k, alphas);
  int wn = d + m + 1;
  double C =
      wn * d * (log(gamma) - 0.5 * log(2)) - log_gamma_distrib(0.5 * wn, d);
  double prior = 0;
  for (int ik = 0; ik < k; ik++) {
    double frob = 0;
    for (int id = 0; id < d; id++)
      frob += qdiags[ik * d + id] * qdiags[ik * d + id];
    for (int i = d; i < icf_sz; i++)
      frob += icf[ik * icf_sz + i] * icf[ik * icf_sz + i];
    prior += 0.5 * gamma * gamma * frob - m * sum_qs[ik];
  }
  prior -= k * C;
  *err = -n * d * 0.5 * log(2 * M_PI) + slse - n * lse_alphas + prior;
  free(qdiags);
  free(sum_qs);
  free(xc);
  free(qxc);
  free(main_term);
}

static double *read_doubles(FILE *f, int count) {
  double *v = malloc(sizeof(double) * count);
  for (int i = 0; i < count; i++)
    if (fscanf(f, "%lf", &v[i]) != 1)
      exit(2);
  return v;
}

int main(int argc, char **argv) {
  FILE *f = fopen(argc > 1 ? argv[1] : "gmm_d10_K25.txt", "r");
  if (!f)
    return 2;
  int d, k, n, m;
  double gamma;
  if (fscanf(f, "%d %d %d", &d, &k, &n) != 3)
    return 2;
  int icf_sz = d * (d + 1) / 2;
  double *alphas = read_doubles(f, k), *means = read_doubles(f, k * d);
  double *icf = read_doubles(f, k * icf_sz), *x = read_doubles(f, n * d);
  if (fscanf(f, "%lf %d", &gamma, &m) != 2)
    return 2;
  fclose(f);

  double *da = calloc(k, 8), *dm = calloc(k * d, 8),
         *di = calloc(k * icf_sz, 8);
  double err = 0, derr = 1;
  double primal = BENCH_BEST_MS(5, {
    gmm_objective(d, k, n, alphas, means, icf, x, gamma, m, &err);
    bench_sink = err;
  });
#define GRADIENT                                                               \
  do {                                                                         \
    memset(da, 0, 8 * k);                                                      \
    memset(dm, 0, 8 * k * d);                                                  \
    memset(di, 0, 8 * k * icf_sz);                                             \
    derr = 1;                                                                  \
    __enzyme_autodiff((void *)gmm_objective, enzyme_const, d, enzyme_const, k, \
                      enzyme_const, n, enzyme_dup, alphas, da, enzyme_dup,     \
                      means, dm, enzyme_dup, icf, di, enzyme_const, x,         \
                      enzyme_const, gamma, enzyme_const, m, enzyme_dup, &err,  \
                      &derr);                                                  \
  } while (0)
  double grad = BENCH_BEST_MS(5, GRADIENT);
  char name[64];
  snprintf(name, sizeof name, "gmm_d%d_K%d_n%d", d, k, n);
  BENCH_REPORT(name, primal, grad, GRADIENT);

  /* Check a sample of partial derivatives against central differences. */
  int bad = 0;
  double *params[3] = {alphas, means, icf}, *grads[3] = {da, dm, di};
  int sizes[3] = {k, k * d, k * icf_sz};
  for (int p = 0; p < 3; p++)
    for (int i = 0; i < sizes[p]; i += 1 + sizes[p] / 7) {
      double old = params[p][i], h = 1e-5, ep, em;
      params[p][i] = old + h;
      gmm_objective(d, k, n, alphas, means, icf, x, gamma, m, &ep);
      params[p][i] = old - h;
      gmm_objective(d, k, n, alphas, means, icf, x, gamma, m, &em);
      params[p][i] = old;
      double fd = (ep - em) / (2 * h);
      if (fabs(fd - grads[p][i]) > 1e-4 * (1 + fabs(fd))) {
        printf("MISMATCH param %d[%d]: gradient %.10g finite difference "
               "%.10g\n",
               p, i, grads[p][i], fd);
        bad++;
      }
    }
  printf("%s\n", bad ? "GRADIENT CHECK FAILED" : "gradient check OK");
  return bad != 0;
}
