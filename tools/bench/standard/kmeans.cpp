// k-means (GradBench "kmeans"): cost = sum_i min_j |p_i - c_j|^2 over n
// points p and k centroids c in d dimensions; the derivative is the gradient
// w.r.t. the centroids AND the Hessian's diagonal (the Hessian is diagonal,
// so one Hessian-vector product with the all-ones vector gives it), by
// forward over reverse. Hand-written: gradient 2 sum_{i in cluster j}
// (c_j - p_i), Hessian diagonal 2 |cluster j|.
// Sizes: (n, k, d) = (1000, 10, 8) / (10000, 50, 8) / (100000, 100, 16);
// points and centroids uniform in [0, 1), seed 5.
#include "common.h"

template <class T>
T dist2(int d, const double *__restrict p, const T *__restrict c) {
  T s = 0;
  for (int i = 0; i < d; i++)
    s += (p[i] - c[i]) * (p[i] - c[i]);
  return s;
}

template <class T>
void objective(int n, int k, int d, const double *__restrict points,
               const T *__restrict centroids, T *__restrict err) {
  T cost = 0;
  for (int i = 0; i < n; i++) {
    T closest = INFINITY;
    for (int j = 0; j < k; j++) {
      T dj = dist2(d, &points[i * d], &centroids[j * d]);
      if (dj < closest)
        closest = dj;
    }
    cost += closest;
  }
  *err = cost;
}

// got = [gradient (k*d), Hessian diagonal (k*d)].
static void handDerivative(int n, int k, int d, const double *p,
                           const double *c, double *got) {
  std::fill(got, got + 2 * k * d, 0.0);
  for (int i = 0; i < n; i++) {
    int best = 0;
    double bd = INFINITY;
    for (int j = 0; j < k; j++) {
      double dj = dist2(d, &p[i * d], &c[j * d]);
      if (dj < bd) {
        bd = dj;
        best = j;
      }
    }
    for (int l = 0; l < d; l++) {
      got[best * d + l] += 2 * (c[best * d + l] - p[i * d + l]);
      got[k * d + best * d + l] += 2;
    }
  }
}

#if defined(TOOL_TAPESTRY)
// The gradient, by reverse mode; its forward derivative in direction v is
// the Hessian times v.
void kmeansGradient(int n, int k, int d, const double *points,
                    const double *centroids, double *grad) {
  double err = 0, derr = 1;
  __enzyme_autodiff((void *)objective<double>, enzyme_const, n, enzyme_const, k,
                    enzyme_const, d, enzyme_const, points, enzyme_dup,
                    centroids, grad, enzyme_dup, &err, &derr);
}
#endif

int main(int argc, char **argv) {
  bench::Args a(argc, argv);
  int n = a.pick(1000, 10000, 100000), k = a.pick(10, 50, 100),
      d = a.pick(8, 8, 16);
  bench::Rng rng(5);
  std::vector<double> P(n * d), C(k * d), got(2 * k * d);
  for (double &v : P)
    v = rng.uniform();
  for (double &v : C)
    v = rng.uniform();
  double err;

  auto primal = [&] {
    objective(n, k, d, P.data(), C.data(), &err);
    bench::sink = err;
  };
#if defined(TOOL_HAND)
  auto deriv = [&] { handDerivative(n, k, d, P.data(), C.data(), got.data()); };
#elif defined(TOOL_TAPESTRY)
  std::vector<double> ones(k * d, 1.0);
  auto deriv = [&] {
    std::fill(got.begin(), got.end(), 0.0);
    __enzyme_fwddiff((void *)kmeansGradient, enzyme_const, n, enzyme_const, k,
                     enzyme_const, d, enzyme_const, P.data(), enzyme_dup,
                     C.data(), ones.data(), enzyme_dup, got.data(),
                     got.data() + k * d);
  };
#elif defined(TOOL_ADOLC)
  std::vector<double> ones(k * d, 1.0);
  auto deriv = [&] {
    trace_on(1);
    std::vector<adouble> ac(k * d);
    for (int i = 0; i < k * d; i++)
      ac[i] <<= C[i];
    adouble y;
    objective(n, k, d, P.data(), ac.data(), &y);
    double yv;
    y >>= yv;
    trace_off();
    gradient(1, k * d, C.data(), got.data());
    hess_vec(1, k * d, C.data(), ones.data(), got.data() + k * d);
  };
#elif defined(TOOL_SACADO)
#error "k-means needs forward over reverse: Sacado's Fad (see README)"
#endif
  bench::Runner r("kmeans", a);
  return r.run(
      primal, deriv, got,
      [&] {
        std::vector<double> ref(2 * k * d);
        handDerivative(n, k, d, P.data(), C.data(), ref.data());
        return ref;
      },
      [&] {
        std::vector<double> g(got.begin(), got.begin() + k * d);
        return bench::fdCheck(
            C,
            [&] {
              objective(n, k, d, P.data(), C.data(), &err);
              return err;
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
