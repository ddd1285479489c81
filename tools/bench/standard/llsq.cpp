// Linear least squares (GradBench "llsq", after cmpad's llsq_obj):
//   y(x) = 1/2 sum_{i<n} (s_i - sum_{j<m} x_j t_i^j)^2,
//   t_i = -1 + 2i/(n-1), s_i = sign(t_i);
// gradient w.r.t. x (m coefficients). Hand-written: dy/dx_j =
// -sum_i r_i t_i^j with r_i the residual.
// Sizes: (m, n) = (16, 1000) / (64, 4096) / (128, 16384); x uniform in
// [-1, 1), seed 2.
#include "common.h"

static double tOf(int i, int n) { return -1 + i * 2.0 / (n - 1); }
static double sOf(double t) { return t > 0 ? 1 : t < 0 ? -1 : 0; }

template <class T> T llsq(int m, const T *x, int n) {
  T sum = 0;
  for (int i = 0; i < n; i++) {
    double ti = tOf(i, n), pw = 1;
    T r = sOf(ti);
    for (int j = 0; j < m; j++) {
      r -= x[j] * pw;
      pw *= ti;
    }
    sum += r * r;
  }
  return sum / 2;
}

static void handGradient(int m, const double *x, int n, double *g) {
  for (int j = 0; j < m; j++)
    g[j] = 0;
  for (int i = 0; i < n; i++) {
    double ti = tOf(i, n), pw = 1, r = sOf(ti);
    for (int j = 0; j < m; j++) {
      r -= x[j] * pw;
      pw *= ti;
    }
    pw = 1;
    for (int j = 0; j < m; j++) {
      g[j] -= r * pw;
      pw *= ti;
    }
  }
}

int main(int argc, char **argv) {
  bench::Args a(argc, argv);
  int m = a.pick(16, 64, 128), n = a.pick(1000, 4096, 16384);
  bench::Rng rng(2);
  std::vector<double> x(m), g(m);
  for (double &v : x)
    v = rng.uniform(-1, 1);

  auto primal = [&] { bench::sink = llsq(m, x.data(), n); };
#if defined(TOOL_HAND)
  auto deriv = [&] { handGradient(m, x.data(), n, g.data()); };
#elif defined(TOOL_TAPESTRY)
  auto deriv = [&] {
    std::fill(g.begin(), g.end(), 0.0);
    __enzyme_autodiff((void *)llsq<double>, enzyme_const, m, enzyme_dup,
                      x.data(), g.data(), enzyme_const, n);
  };
#elif defined(TOOL_ADOLC)
  auto deriv = [&] {
    trace_on(1);
    std::vector<adouble> ax(m);
    for (int j = 0; j < m; j++)
      ax[j] <<= x[j];
    adouble y = llsq(m, ax.data(), n);
    double yv;
    y >>= yv;
    trace_off();
    gradient(1, m, x.data(), g.data());
  };
#elif defined(TOOL_SACADO)
  typedef Sacado::Rad::ADvar<double> R;
  auto deriv = [&] {
    std::vector<R> ax(x.begin(), x.end());
    R y = llsq(m, ax.data(), n);
    R::Gradcomp();
    for (int j = 0; j < m; j++)
      g[j] = ax[j].adj();
  };
#endif
  bench::Runner r("llsq", a);
  return r.run(
      primal, deriv, g,
      [&] {
        std::vector<double> ref(m);
        handGradient(m, x.data(), n, ref.data());
        return ref;
      },
      [&] {
        return bench::fdCheck(
            x, [&] { return llsq(m, x.data(), n); }, g);
      },
#if defined(TOOL_ADOLC)
      [&] { return adolcTapeBytes(1); }
#else
      nullptr
#endif
  );
}
