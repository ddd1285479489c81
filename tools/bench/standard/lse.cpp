// Log-sum-exp (GradBench "lse"): y = log(sum_i exp(x_i)), computed stably as
// m + log(sum_i exp(x_i - m)) with m = max_i x_i; gradient w.r.t. x, whose
// hand-written form is the softmax exp(x_i - y).
// Sizes: n = 1000 / 100000 / 1000000; x uniform in [-4, 4), seed 1.
#include "common.h"

template <class T> T logsumexp(int n, const T *x) {
  T m = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > m)
      m = x[i];
  T s = 0;
  for (int i = 0; i < n; i++)
    s += exp(x[i] - m);
  return log(s) + m;
}

static void handGradient(int n, const double *x, double *g) {
  double y = logsumexp(n, x);
  for (int i = 0; i < n; i++)
    g[i] = exp(x[i] - y);
}

int main(int argc, char **argv) {
  bench::Args a(argc, argv);
  int n = a.pick(1000, 100000, 1000000);
  bench::Rng rng(1);
  std::vector<double> x(n), g(n);
  for (double &v : x)
    v = rng.uniform(-4, 4);

  auto primal = [&] { bench::sink = logsumexp(n, x.data()); };
  long long tape = -1;
#if defined(TOOL_HAND)
  auto deriv = [&] { handGradient(n, x.data(), g.data()); };
#elif defined(TOOL_TAPESTRY)
  auto deriv = [&] {
    std::fill(g.begin(), g.end(), 0.0);
    __enzyme_autodiff((void *)logsumexp<double>, enzyme_const, n, enzyme_dup,
                      x.data(), g.data());
  };
#elif defined(TOOL_ADOLC)
  auto deriv = [&] {
    trace_on(1);
    std::vector<adouble> ax(n);
    for (int i = 0; i < n; i++)
      ax[i] <<= x[i];
    adouble y = logsumexp(n, ax.data());
    double yv;
    y >>= yv;
    trace_off();
    gradient(1, n, x.data(), g.data());
  };
#elif defined(TOOL_SACADO)
  typedef Sacado::Rad::ADvar<double> R;
  auto deriv = [&] {
    std::vector<R> ax(x.begin(), x.end());
    R y = logsumexp(n, ax.data());
    R::Gradcomp();
    for (int i = 0; i < n; i++)
      g[i] = ax[i].adj();
  };
#endif
  bench::Runner r("lse", a);
  return r.run(
      primal, deriv, g,
      [&] {
        std::vector<double> ref(n);
        handGradient(n, x.data(), ref.data());
        return ref;
      },
      [&] {
        return bench::fdCheck(
            x, [&] { return logsumexp(n, x.data()); }, g);
      },
#if defined(TOOL_ADOLC)
      [&] { return adolcTapeBytes(1); }
#else
      nullptr
#endif
  );
}
