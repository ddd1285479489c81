// ODE (GradBench "ode", after cmpad's an_ode): y' = f(x, y) with
// f_0 = x_0 and f_i = x_i y_{i-1}, y(0) = 0, integrated to t = 2 by s steps
// of explicit fourth-order Runge-Kutta, written with std::vector scratch
// buffers as the C++ reference writes it. Gradient of the last component of
// y(2) w.r.t. x. Hand-written: the discrete adjoint of the RK4 steps (the
// states of every step stored, the stages recomputed).
// Sizes: (n, s) = (16, 256) / (128, 1024) / (1024, 4096); x uniform in
// [0, 1), seed 3.
#include "common.h"

template <class T>
static void odeFun(int n, const T *__restrict x, const T *__restrict y,
                   T *__restrict z) {
  z[0] = x[0];
  for (int i = 1; i < n; i++)
    z[i] = x[i] * y[i - 1];
}

template <class T> void rk4(int n, const T *__restrict x, int s, T *yf) {
  T h = T(2.0) / s;
  std::vector<T> k1(n), k2(n), k3(n), k4(n), tmp(n);
  std::fill(yf, yf + n, T(0));
  for (int step = 0; step < s; step++) {
    odeFun(n, x, yf, k1.data());
    for (int i = 0; i < n; i++)
      tmp[i] = yf[i] + h * k1[i] / 2;
    odeFun(n, x, tmp.data(), k2.data());
    for (int i = 0; i < n; i++)
      tmp[i] = yf[i] + h * k2[i] / 2;
    odeFun(n, x, tmp.data(), k3.data());
    for (int i = 0; i < n; i++)
      tmp[i] = yf[i] + h * k3[i];
    odeFun(n, x, tmp.data(), k4.data());
    for (int i = 0; i < n; i++)
      yf[i] += h * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) / 6;
  }
}

// Adjoint of z = f(x, y): xb += df/dx^T zb, yb += df/dy^T zb.
static void odeFunAdj(int n, const double *x, const double *y, const double *zb,
                      double *xb, double *yb) {
  xb[0] += zb[0];
  for (int i = 1; i < n; i++) {
    xb[i] += zb[i] * y[i - 1];
    yb[i - 1] += zb[i] * x[i];
  }
}

static void handGradient(int n, const double *x, int s, double *g) {
  double h = 2.0 / s;
  std::vector<double> ys((size_t)(s + 1) * n, 0.0), k1(n), k2(n), k3(n), t2(n),
      t3(n), t4(n);
  for (int st = 0; st < s; st++) {
    const double *y = &ys[(size_t)st * n];
    double *yn = &ys[(size_t)(st + 1) * n];
    std::vector<double> k4(n);
    odeFun(n, x, y, k1.data());
    for (int i = 0; i < n; i++)
      t2[i] = y[i] + h * k1[i] / 2;
    odeFun(n, x, t2.data(), k2.data());
    for (int i = 0; i < n; i++)
      t3[i] = y[i] + h * k2[i] / 2;
    odeFun(n, x, t3.data(), k3.data());
    for (int i = 0; i < n; i++)
      t4[i] = y[i] + h * k3[i];
    odeFun(n, x, t4.data(), k4.data());
    for (int i = 0; i < n; i++)
      yn[i] = y[i] + h * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) / 6;
  }
  std::vector<double> yb(n, 0.0), kb1(n), kb2(n), kb3(n), kb4(n), tb(n);
  std::fill(g, g + n, 0.0);
  yb[n - 1] = 1;
  for (int st = s - 1; st >= 0; st--) {
    const double *y = &ys[(size_t)st * n];
    // Recompute the stages' arguments.
    odeFun(n, x, y, k1.data());
    for (int i = 0; i < n; i++)
      t2[i] = y[i] + h * k1[i] / 2;
    odeFun(n, x, t2.data(), k2.data());
    for (int i = 0; i < n; i++)
      t3[i] = y[i] + h * k2[i] / 2;
    odeFun(n, x, t3.data(), k3.data());
    for (int i = 0; i < n; i++)
      t4[i] = y[i] + h * k3[i];
    for (int i = 0; i < n; i++) {
      kb1[i] = h / 6 * yb[i];
      kb2[i] = h / 3 * yb[i];
      kb3[i] = h / 3 * yb[i];
      kb4[i] = h / 6 * yb[i];
    }
    // k4 = f(t4), t4 = y + h k3.
    std::fill(tb.begin(), tb.end(), 0.0);
    odeFunAdj(n, x, t4.data(), kb4.data(), g, tb.data());
    for (int i = 0; i < n; i++) {
      yb[i] += tb[i];
      kb3[i] += h * tb[i];
    }
    // k3 = f(t3), t3 = y + h/2 k2.
    std::fill(tb.begin(), tb.end(), 0.0);
    odeFunAdj(n, x, t3.data(), kb3.data(), g, tb.data());
    for (int i = 0; i < n; i++) {
      yb[i] += tb[i];
      kb2[i] += h / 2 * tb[i];
    }
    // k2 = f(t2), t2 = y + h/2 k1.
    std::fill(tb.begin(), tb.end(), 0.0);
    odeFunAdj(n, x, t2.data(), kb2.data(), g, tb.data());
    for (int i = 0; i < n; i++) {
      yb[i] += tb[i];
      kb1[i] += h / 2 * tb[i];
    }
    // k1 = f(y).
    odeFunAdj(n, x, y, kb1.data(), g, yb.data());
  }
}

int main(int argc, char **argv) {
  bench::Args a(argc, argv);
  int n = a.pick(16, 128, 1024), s = a.pick(256, 1024, 4096);
  bench::Rng rng(3);
  std::vector<double> x(n), g(n), y(n);
  for (double &v : x)
    v = rng.uniform();

  auto primal = [&] {
    rk4(n, x.data(), s, y.data());
    bench::sink = y[n - 1];
  };
#if defined(TOOL_HAND)
  auto deriv = [&] { handGradient(n, x.data(), s, g.data()); };
#elif defined(TOOL_TAPESTRY)
  std::vector<double> dy(n);
  auto deriv = [&] {
    std::fill(g.begin(), g.end(), 0.0);
    std::fill(dy.begin(), dy.end(), 0.0);
    dy[n - 1] = 1;
    __enzyme_autodiff((void *)rk4<double>, enzyme_const, n, enzyme_dup,
                      x.data(), g.data(), enzyme_const, s, enzyme_dup, y.data(),
                      dy.data());
  };
#elif defined(TOOL_ADOLC)
  auto deriv = [&] {
    trace_on(1);
    std::vector<adouble> ax(n), ay(n);
    for (int i = 0; i < n; i++)
      ax[i] <<= x[i];
    rk4(n, ax.data(), s, ay.data());
    double yv;
    ay[n - 1] >>= yv;
    trace_off();
    gradient(1, n, x.data(), g.data());
  };
#elif defined(TOOL_SACADO)
  typedef Sacado::Rad::ADvar<double> R;
  auto deriv = [&] {
    std::vector<R> ax(x.begin(), x.end()), ay(n);
    rk4(n, ax.data(), s, ay.data());
    R::Outvar_Gradcomp(ay[n - 1]);
    for (int i = 0; i < n; i++)
      g[i] = ax[i].adj();
  };
#endif
  bench::Runner r("ode", a);
  return r.run(
      primal, deriv, g,
      [&] {
        std::vector<double> ref(n);
        handGradient(n, x.data(), s, ref.data());
        return ref;
      },
      [&] {
        return bench::fdCheck(
            x,
            [&] {
              rk4(n, x.data(), s, y.data());
              return y[n - 1];
            },
            g);
      },
#if defined(TOOL_ADOLC)
      [&] { return adolcTapeBytes(1); }
#else
      nullptr
#endif
  );
}
