// Saddle point (GradBench "saddle", after Siskind and Pearlmutter): with
// f(p1, p2) = |p1|^2 - |p2|^2 over points of the plane, F(p1) =
// f(p1, argmax_p2 f(p1, p2)), the inner argmax found by gradient descent
// (Siskind and Pearlmutter's multivariate-argmin: step eta, doubled after
// 10 successful steps, halved after a failed one, stopping when the
// gradient or the step is below 1e-5) from the start point, the inner
// gradient a derivative inside the function. The derivative is dF/dp1
// through the whole inner optimisation (its loop, its tests and its inner
// gradients): a nested derivative, by reverse over reverse (rr) and forward
// over reverse (fr, two directions), all in one call. The primal uses the
// hand-written inner gradient. Hand-written derivative: the inner iterates
// do not depend on p1, so dF/dp1 = 2 p1 exactly. No peers (nested).
// Sizes: 1 / 8 / 64 start points, uniform in [-2, 2)^2, seed 6 (p1 = p2 =
// start, as GradBench starts both).
#include "common.h"

static double objective(const double *p1, const double *p2) {
  return p1[0] * p1[0] + p1[1] * p1[1] - (p2[0] * p2[0] + p2[1] * p2[1]);
}

// The gradient of -f(p1, .) w.r.t. p2 is a template argument (hand-written
// or by AD), a function object called directly. (Through a function
// pointer works too: test/Bench/nested-fwd-over-rev-fnptr.c.)

struct HandNegGrad {
  void operator()(const double *, const double *p2, double *g) const {
    g[0] = 2 * p2[0];
    g[1] = 2 * p2[1];
  }
};

// argmin over p2 of -f(p1, p2) from `start`, into p2.
template <class Grad>
static void argmaxP2(const double *p1, const double *start, Grad grad,
                     double *p2) {
  double x[2] = {start[0], start[1]}, gx[2], eta = 1e-5;
  double fx = -objective(p1, x);
  grad(p1, x, gx);
  for (int i = 0;;) {
    if (sqrt(gx[0] * gx[0] + gx[1] * gx[1]) <= 1e-5)
      break;
    if (i == 10) {
      eta *= 2;
      i = 0;
      continue;
    }
    double xn[2] = {x[0] - eta * gx[0], x[1] - eta * gx[1]};
    if (sqrt((x[0] - xn[0]) * (x[0] - xn[0]) +
             (x[1] - xn[1]) * (x[1] - xn[1])) <= 1e-5)
      break;
    double fxn = -objective(p1, xn);
    if (fxn < fx) {
      x[0] = xn[0];
      x[1] = xn[1];
      fx = fxn;
      grad(p1, x, gx);
      i++;
    } else {
      eta /= 2;
      i = 0;
    }
  }
  p2[0] = x[0];
  p2[1] = x[1];
}

template <class Grad>
static double maxF(const double *p1, const double *start, Grad grad) {
  double p2[2];
  argmaxP2(p1, start, grad, p2);
  return objective(p1, p2);
}

#if defined(TOOL_TAPESTRY)
static double negObjective(const double *p1, const double *p2) {
  return -objective(p1, p2);
}

struct AdNegGrad {
  void operator()(const double *p1, const double *p2, double *g) const {
    g[0] = g[1] = 0;
    __enzyme_autodiff((void *)negObjective, enzyme_const, p1, enzyme_dup, p2,
                      g);
  }
};

double saddleF(const double *p1, const double *start) {
  return maxF(p1, start, AdNegGrad());
}
#endif

int main(int argc, char **argv) {
  bench::Args a(argc, argv);
  int n = a.pick(1, 8, 64);
  bench::Rng rng(6);
  std::vector<double> starts(2 * n), got(4 * n);
  for (double &v : starts)
    v = rng.uniform(-2, 2);
  auto prim = [&] {
    double s = 0;
    for (int k = 0; k < n; k++)
      s += maxF(&starts[2 * k], &starts[2 * k], HandNegGrad());
    bench::sink = s;
  };
  auto hand = [&](double *out) {
    for (int k = 0; k < n; k++)
      for (int j = 0; j < 2; j++)
        out[4 * k + j] = out[4 * k + 2 + j] = 2 * starts[2 * k + j];
  };
#if defined(TOOL_HAND)
  auto deriv = [&] { hand(got.data()); };
#elif defined(TOOL_TAPESTRY)
  auto deriv = [&] {
    for (int k = 0; k < n; k++) {
      double *p1 = &starts[2 * k], *rr = &got[4 * k], *fr = rr + 2;
      rr[0] = rr[1] = 0;
      __enzyme_autodiff((void *)saddleF, enzyme_dup, p1, rr, enzyme_const, p1);
      for (int j = 0; j < 2; j++) {
        double dir[2] = {j == 0 ? 1.0 : 0.0, j == 1 ? 1.0 : 0.0};
        fr[j] = __enzyme_fwddiff_ret((void *)saddleF, enzyme_dup, p1, dir,
                                     enzyme_const, p1);
      }
    }
  };
#else
#error "saddle: no peer (nested derivatives)"
#endif
  bench::Runner r("saddle", a);
  return r.run(
      prim, deriv, got,
      [&] {
        std::vector<double> ref(4 * n);
        hand(ref.data());
        return ref;
      },
      [&] {
        // F by finite differences in p1, the start of the inner search
        // held fixed.
        std::vector<double> p1(starts.begin(), starts.begin() + 2);
        std::vector<double> g = {got[0], got[1]};
        return bench::fdCheck(
            p1, [&] { return maxF(p1.data(), &starts[0], HandNegGrad()); }, g);
      });
}
