// Gaussian mixture model objective with a Wishart prior (ADBench/GradBench
// "gmm"), on ADBench's inputs (gmm/1k: n = 1000 points). Gradient w.r.t.
// the weights alpha, the means and the inverse covariance factors (log
// diagonal q and strict lower triangle l). Hand-written: the analytic
// gradient (per point, the softmax of the components' terms weights each
// component's gradient).
// Sizes: gmm_d2_K5 / gmm_d10_K25 / gmm_d20_K25.
#include "common.h"

template <class T> T logSumExp(int n, const T *x) {
  T mx = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > mx)
      mx = x[i];
  T s = 0;
  for (int i = 0; i < n; i++)
    s += exp(x[i] - mx);
  return log(s) + mx;
}

static double logGammaDistrib(double a, int p) {
  double out = 0.25 * p * (p - 1) * log(M_PI);
  for (int j = 1; j <= p; j++)
    out += lgamma(a + 0.5 * (1 - j));
  return out;
}

template <class T>
void gmmObjective(int d, int k, int n, const T *__restrict alphas,
                  const T *__restrict means, const T *__restrict icf,
                  const double *__restrict x, double gamma, int m,
                  T *__restrict err) {
  int icfSz = d * (d + 1) / 2;
  std::vector<T> qdiags(d * k), sumQs(k), xc(d), qxc(d), mainTerm(k);
  for (int ik = 0; ik < k; ik++) {
    sumQs[ik] = 0;
    for (int id = 0; id < d; id++) {
      sumQs[ik] += icf[ik * icfSz + id];
      qdiags[ik * d + id] = exp(icf[ik * icfSz + id]);
    }
  }
  T slse = 0;
  for (int ix = 0; ix < n; ix++) {
    for (int ik = 0; ik < k; ik++) {
      for (int id = 0; id < d; id++)
        xc[id] = x[ix * d + id] - means[ik * d + id];
      for (int id = 0; id < d; id++)
        qxc[id] = qdiags[ik * d + id] * xc[id];
      int li = ik * icfSz + d;
      for (int i = 0; i < d; i++)
        for (int j = i + 1; j < d; j++)
          qxc[j] += icf[li++] * xc[i];
      T sq = 0;
      for (int id = 0; id < d; id++)
        sq += qxc[id] * qxc[id];
      mainTerm[ik] = alphas[ik] + sumQs[ik] - 0.5 * sq;
    }
    slse += logSumExp(k, mainTerm.data());
  }
  T lseAlphas = logSumExp(k, alphas);
  int wn = d + m + 1;
  double C =
      wn * d * (log(gamma) - 0.5 * log(2.0)) - logGammaDistrib(0.5 * wn, d);
  T prior = 0;
  for (int ik = 0; ik < k; ik++) {
    T frob = 0;
    for (int id = 0; id < d; id++)
      frob += qdiags[ik * d + id] * qdiags[ik * d + id];
    for (int i = d; i < icfSz; i++)
      frob += icf[ik * icfSz + i] * icf[ik * icfSz + i];
    prior += 0.5 * gamma * gamma * frob - m * sumQs[ik];
  }
  prior -= k * C;
  *err = -n * d * 0.5 * log(2 * M_PI) + slse - n * lseAlphas + prior;
}

// The gradient into ga (k), gm (k*d), gi (k*icfSz).
static void handGradient(int d, int k, int n, const double *alphas,
                         const double *means, const double *icf,
                         const double *x, double gamma, int m, double *ga,
                         double *gm, double *gi) {
  int icfSz = d * (d + 1) / 2;
  std::fill(ga, ga + k, 0.0);
  std::fill(gm, gm + k * d, 0.0);
  std::fill(gi, gi + k * icfSz, 0.0);
  std::vector<double> qd(d * k), xc(k * d), qxc(k * d), mainTerm(k), v(d);
  for (int ik = 0; ik < k; ik++)
    for (int id = 0; id < d; id++)
      qd[ik * d + id] = exp(icf[ik * icfSz + id]);
  for (int ix = 0; ix < n; ix++) {
    for (int ik = 0; ik < k; ik++) {
      double *c = &xc[ik * d], *q = &qxc[ik * d];
      const double *l = &icf[ik * icfSz + d];
      double sumQ = 0;
      for (int id = 0; id < d; id++) {
        c[id] = x[ix * d + id] - means[ik * d + id];
        q[id] = qd[ik * d + id] * c[id];
        sumQ += icf[ik * icfSz + id];
      }
      for (int i = 0, li = 0; i < d; i++)
        for (int j = i + 1; j < d; j++)
          q[j] += l[li++] * c[i];
      double sq = 0;
      for (int id = 0; id < d; id++)
        sq += q[id] * q[id];
      mainTerm[ik] = alphas[ik] + sumQ - 0.5 * sq;
    }
    double lse = logSumExp(k, mainTerm.data());
    for (int ik = 0; ik < k; ik++) {
      double w = exp(mainTerm[ik] - lse);
      const double *c = &xc[ik * d], *q = &qxc[ik * d];
      const double *l = &icf[ik * icfSz + d];
      double *gq = &gi[ik * icfSz], *gl = &gi[ik * icfSz + d];
      ga[ik] += w;
      // d main / d means = Q^T Q xc; d main / d q_j = 1 - (Q xc)_j e^q_j xc_j;
      // d main / d l_(i,j) = -(Q xc)_j xc_i.
      for (int id = 0; id < d; id++) {
        v[id] = qd[ik * d + id] * q[id];
        gq[id] += w * (1 - q[id] * qd[ik * d + id] * c[id]);
      }
      for (int i = 0, li = 0; i < d; i++)
        for (int j = i + 1; j < d; j++, li++) {
          v[i] += l[li] * q[j];
          gl[li] -= w * q[j] * c[i];
        }
      for (int id = 0; id < d; id++)
        gm[ik * d + id] += w * v[id];
    }
  }
  double lseA = logSumExp(k, alphas);
  for (int ik = 0; ik < k; ik++) {
    ga[ik] -= n * exp(alphas[ik] - lseA);
    for (int id = 0; id < d; id++)
      gi[ik * icfSz + id] +=
          gamma * gamma * qd[ik * d + id] * qd[ik * d + id] - m;
    for (int i = d; i < icfSz; i++)
      gi[ik * icfSz + i] += gamma * gamma * icf[ik * icfSz + i];
  }
}

int main(int argc, char **argv) {
  bench::Args a(argc, argv);
  FILE *f =
      bench::openData(a.pick("gmm/1k/gmm_d2_K5.txt", "gmm/1k/gmm_d10_K25.txt",
                             "gmm/1k/gmm_d20_K25.txt"));
  int d, k, n, m;
  double gamma;
  if (fscanf(f, "%d %d %d", &d, &k, &n) != 3)
    return 2;
  int icfSz = d * (d + 1) / 2, np = k + k * d + k * icfSz;
  // All parameters in one vector: alphas, means, icf.
  std::vector<double> p(np), x(n * d), g(np);
  bench::readDoubles(f, p.data(), np);
  bench::readDoubles(f, x.data(), n * d);
  if (fscanf(f, "%lf %d", &gamma, &m) != 2)
    return 2;
  fclose(f);
  double *al = p.data(), *me = al + k, *ic = me + k * d;
  double *ga = g.data(), *gm = ga + k, *gi = gm + k * d;
  double err;
  auto primal = [&] {
    gmmObjective(d, k, n, al, me, ic, x.data(), gamma, m, &err);
    bench::sink = err;
  };
#if defined(TOOL_HAND)
  auto deriv = [&] {
    handGradient(d, k, n, al, me, ic, x.data(), gamma, m, ga, gm, gi);
  };
#elif defined(TOOL_TAPESTRY)
  auto deriv = [&] {
    std::fill(g.begin(), g.end(), 0.0);
    double derr = 1;
    __enzyme_autodiff((void *)gmmObjective<double>, enzyme_const, d,
                      enzyme_const, k, enzyme_const, n, enzyme_dup, al, ga,
                      enzyme_dup, me, gm, enzyme_dup, ic, gi, enzyme_const,
                      x.data(), enzyme_const, gamma, enzyme_const, m,
                      enzyme_dup, &err, &derr);
  };
#elif defined(TOOL_ADOLC)
  auto deriv = [&] {
    trace_on(1);
    std::vector<adouble> ap(np);
    for (int i = 0; i < np; i++)
      ap[i] <<= p[i];
    adouble y;
    gmmObjective(d, k, n, &ap[0], &ap[k], &ap[k + k * d], x.data(), gamma, m,
                 &y);
    double yv;
    y >>= yv;
    trace_off();
    gradient(1, np, p.data(), g.data());
  };
#elif defined(TOOL_SACADO)
  typedef Sacado::Rad::ADvar<double> R;
  auto deriv = [&] {
    std::vector<R> ap(p.begin(), p.end());
    R y;
    gmmObjective(d, k, n, &ap[0], &ap[k], &ap[k + k * d], x.data(), gamma, m,
                 &y);
    R::Outvar_Gradcomp(y);
    for (int i = 0; i < np; i++)
      g[i] = ap[i].adj();
  };
#endif
  bench::Runner r("gmm", a);
  return r.run(
      primal, deriv, g,
      [&] {
        std::vector<double> ref(np);
        handGradient(d, k, n, al, me, ic, x.data(), gamma, m, &ref[0], &ref[k],
                     &ref[k + k * d]);
        return ref;
      },
      [&] {
        return bench::fdCheck(
            p,
            [&] {
              gmmObjective(d, k, n, al, me, ic, x.data(), gamma, m, &err);
              return err;
            },
            g, 30);
      },
#if defined(TOOL_ADOLC)
      [&] { return adolcTapeBytes(1); }
#else
      nullptr
#endif
  );
}
