// Determinant by minors (GradBench "det", after cmpad's det_by_minor):
// det(A) of an l x l matrix by recursive expansion along the first row of
// each minor, the minor's rows and columns kept as linked lists of indices
// (no copies); gradient w.r.t. every entry of A. Hand-written: the cofactor
// adjoint of the same recursion (each minor's value and adjoint in one
// recursive sweep, so it costs about twice the primal), itself checked
// against finite differences and against the cofactor matrix det(A) A^{-T}
// by LU decomposition with partial pivoting.
// Sizes: l = 5 / 7 / 9; A uniform in [-1, 1), seed 4.
#include "common.h"

// The determinant of the k x k minor of the m x m matrix a whose rows are
// r[m], r[r[m]], ... and whose columns are c[m], c[c[m]], ... .
template <class T> T detMinor(const T *a, int m, int k, int *r, int *c) {
  int i = r[m];
  if (k == 1)
    return a[i * m + c[m]];
  r[m] = r[i]; // drop row i
  T d = 0;
  double sign = 1;
  for (int prev = m, j = c[m]; j < m; prev = j, j = c[j]) {
    c[prev] = c[j]; // drop column j
    T sub = detMinor(a, m, k - 1, r, c);
    c[prev] = j;
    d += sign * a[i * m + j] * sub;
    sign = -sign;
  }
  r[m] = i;
  return d;
}

template <class T> T det(const T *a, int m) {
  std::vector<int> r(m + 1), c(m + 1);
  for (int i = 0; i <= m; i++)
    r[i] = c[i] = (i + 1) % (m + 1); // m -> 0 -> 1 -> ... -> m-1 -> m
  return detMinor(a, m, m, r.data(), c.data());
}

// The adjoint of detMinor: returns the minor's determinant and adds
// seed * d(det)/d(a) to g.
static double detMinorAdj(const double *a, int m, int k, int *r, int *c,
                          double seed, double *g) {
  int i = r[m];
  if (k == 1) {
    g[i * m + c[m]] += seed;
    return a[i * m + c[m]];
  }
  r[m] = r[i];
  double d = 0, sign = 1;
  for (int prev = m, j = c[m]; j < m; prev = j, j = c[j]) {
    c[prev] = c[j];
    double sub = detMinorAdj(a, m, k - 1, r, c, seed * sign * a[i * m + j], g);
    c[prev] = j;
    g[i * m + j] += seed * sign * sub;
    d += sign * a[i * m + j] * sub;
    sign = -sign;
  }
  r[m] = i;
  return d;
}

static void handGradient(const double *a, int m, double *g) {
  std::vector<int> r(m + 1), c(m + 1);
  for (int i = 0; i <= m; i++)
    r[i] = c[i] = (i + 1) % (m + 1);
  std::fill(g, g + m * m, 0.0);
  detMinorAdj(a, m, m, r.data(), c.data(), 1.0, g);
}

// d det / d A = det(A) A^{-T}: solve A^T Z = det(A) I with A = P^T L U.
static void cofactors(const double *a, int m, double *g) {
  std::vector<double> lu(a, a + m * m);
  std::vector<int> piv(m);
  double d = 1;
  for (int k = 0; k < m; k++) {
    int p = k;
    for (int i = k + 1; i < m; i++)
      if (std::fabs(lu[i * m + k]) > std::fabs(lu[p * m + k]))
        p = i;
    piv[k] = p;
    if (p != k) {
      for (int j = 0; j < m; j++)
        std::swap(lu[k * m + j], lu[p * m + j]);
      d = -d;
    }
    d *= lu[k * m + k];
    for (int i = k + 1; i < m; i++) {
      lu[i * m + k] /= lu[k * m + k];
      for (int j = k + 1; j < m; j++)
        lu[i * m + j] -= lu[i * m + k] * lu[k * m + j];
    }
  }
  // Column j of A^{-1}: solve P A x = P e_j; then g[i][j] = d * inv[j][i].
  std::vector<double> x(m);
  for (int j = 0; j < m; j++) {
    for (int i = 0; i < m; i++)
      x[i] = i == j;
    for (int k = 0; k < m; k++)
      std::swap(x[k], x[piv[k]]);
    for (int i = 0; i < m; i++)
      for (int k = 0; k < i; k++)
        x[i] -= lu[i * m + k] * x[k];
    for (int i = m - 1; i >= 0; i--) {
      for (int k = i + 1; k < m; k++)
        x[i] -= lu[i * m + k] * x[k];
      x[i] /= lu[i * m + i];
    }
    for (int i = 0; i < m; i++)
      g[j * m + i] = d * x[i]; // (A^{-1})_{ij} -> gradient entry (j, i)
  }
}

int main(int argc, char **argv) {
  bench::Args a(argc, argv);
  int m = a.pick(5, 7, 9);
  bench::Rng rng(4);
  std::vector<double> A(m * m), g(m * m);
  for (double &v : A)
    v = rng.uniform(-1, 1);

  auto primal = [&] { bench::sink = det(A.data(), m); };
#if defined(TOOL_HAND)
  auto deriv = [&] { handGradient(A.data(), m, g.data()); };
#elif defined(TOOL_TAPESTRY)
  auto deriv = [&] {
    std::fill(g.begin(), g.end(), 0.0);
    __enzyme_autodiff((void *)det<double>, enzyme_dup, A.data(), g.data(),
                      enzyme_const, m);
  };
#elif defined(TOOL_ADOLC)
  auto deriv = [&] {
    trace_on(1);
    std::vector<adouble> aa(m * m);
    for (int i = 0; i < m * m; i++)
      aa[i] <<= A[i];
    adouble y = det(aa.data(), m);
    double yv;
    y >>= yv;
    trace_off();
    gradient(1, m * m, A.data(), g.data());
  };
#elif defined(TOOL_SACADO)
  typedef Sacado::Rad::ADvar<double> R;
  auto deriv = [&] {
    std::vector<R> aa(A.begin(), A.end());
    R y = det(aa.data(), m);
    R::Gradcomp();
    for (int i = 0; i < m * m; i++)
      g[i] = aa[i].adj();
  };
#endif
  bench::Runner r("det", a);
  return r.run(
      primal, deriv, g,
      [&] {
        std::vector<double> ref(m * m);
        handGradient(A.data(), m, ref.data());
        return ref;
      },
      [&] {
        std::vector<double> cof(m * m);
        cofactors(A.data(), m, cof.data());
        return std::max(bench::maxRelErr(g, cof),
                        bench::fdCheck(
                            A, [&] { return det(A.data(), m); }, g));
      },
#if defined(TOOL_ADOLC)
      [&] { return adolcTapeBytes(1); }
#else
      nullptr
#endif
  );
}
