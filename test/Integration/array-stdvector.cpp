// std::vector<double> built, grown by push_back (reallocating, copying and
// freeing its storage an unknown number of times) and reduced inside the
// differentiated function, in reverse and forward mode against central finite
// differences: push_back of computed values, a vector sized at construction,
// reserve + push_back, a vector of vectors, and std::accumulate / a
// range-for. The code is compiled with exceptions, as C++ is by default,
// and with sized deallocation (the default): std::vector frees its storage
// with the sized operator delete(void *, size_t), in both modes.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <numeric>
#include <stdlib.h>
#include <string.h>
#include <vector>

extern "C" int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
extern "C" void __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_autodiff_d(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);
extern "C" void __enzyme_fwddiff_v(void *, ...);

/* ---- Harness: every kernel's active inputs are packed into one vector p.
 * eval(p) runs the primal on fresh copies of the inputs (the kernels may
 * overwrite them) and returns a scalar; grad(p, g) runs reverse mode on fresh
 * copies with shadows and unpacks the adjoints into g (zeroed by the caller);
 * tangent(p, j) runs forward mode with the unit tangent e_j and returns the
 * directional derivative. compare() checks reverse against a central finite
 * difference (step 1e-6, 1e-6 relative) and forward against reverse (1e-10). */
#define FD_H 1e-6
#define FD_TOL 1e-6
#define FR_TOL 1e-10

static char label_[256];
#define LABEL(...) (snprintf(label_, sizeof label_, __VA_ARGS__), label_)

typedef double (*eval_fn)(const double *p);
typedef void (*grad_fn)(const double *p, double *g);
typedef double (*tangent_fn)(const double *p, int j);

static void compare(const char *name, int N, const double *p, eval_fn eval,
                    grad_fn grad, tangent_fn tangent) {
  double *g = (double *)calloc(N, sizeof *g);
  double *q = (double *)malloc(N * sizeof *q);
  grad(p, g);
  for (int j = 0; j < N; j++) {
    memcpy(q, p, N * sizeof *q);
    q[j] = p[j] + FD_H;
    double fp = eval(q);
    q[j] = p[j] - FD_H;
    double fm = eval(q);
    double fd = (fp - fm) / (2 * FD_H);
    check_close(LABEL("%s: reverse vs finite difference, d/dp[%d]", name, j),
                g[j], fd, FD_TOL);
    check_close(LABEL("%s: forward vs reverse, d/dp[%d]", name, j),
                tangent(p, j), g[j], FR_TOL);
  }
  free(g);
  free(q);
}

/* A fresh heap copy of n doubles. */
static double *copy_of(const double *src, int n) {
  double *d = (double *)malloc((n ? n : 1) * sizeof *d);
  memcpy(d, src, n * sizeof *d);
  return d;
}

/* The slice [off, off + n) of the unit vector e_j, as a fresh array. */
static double *unit_slice(int j, int off, int n) {
  double *d = (double *)calloc(n ? n : 1, sizeof *d);
  if (j >= off && j < off + n)
    d[j - off] = 1.0;
  return d;
}

/* Deterministic, irregular test inputs in roughly [lo, hi]. */
static void fill(double *p, int n, double lo, double hi, int seed) {
  for (int i = 0; i < n; i++) {
    double u = 0.5 + 0.5 * sin(12.9898 * (i + 1) + 78.233 * seed);
    p[i] = lo + (hi - lo) * u;
  }
}

/* push_back of computed values into an empty vector, then a reduction */
double pushback_sum(const double *x, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; i++) {
    v.push_back(sin(x[i]) * x[i]);
    if (i % 2 == 0)
      v.push_back(exp(0.3 * x[i]));
  }
  double s = 0;
  for (size_t k = 0; k < v.size(); k++)
    s += v[k] * v[v.size() - 1 - k];
  return s;
}

/* sized at construction, filled by index, reduced with std::accumulate */
double sized_accumulate(const double *x, int n) {
  std::vector<double> v(n);
  for (int i = 0; i < n; i++)
    v[i] = x[i] * x[(i + 1) % n] + cos(x[i]);
  return std::accumulate(v.begin(), v.end(), 0.0) *
         std::accumulate(v.begin(), v.begin() + n / 2, 1.0);
}

/* reserve, push_back, a range-for, and a copy of the vector */
double reserved_copy(const double *x, int n) {
  std::vector<double> v;
  v.reserve(2);
  for (int i = 0; i < n; i++)
    v.push_back(x[i] * (i + 1));
  std::vector<double> w = v;
  for (double &e : w)
    e = tanh(e);
  double s = 0;
  for (double e : w)
    s += e * e;
  for (double e : v)
    s += 0.01 * e;
  return s;
}

/* a vector of vectors (a ragged triangle), grown row by row */
double triangle(const double *x, int n) {
  std::vector<std::vector<double>> rows;
  for (int i = 0; i < n; i++) {
    std::vector<double> r;
    for (int j = 0; j <= i; j++)
      r.push_back(x[i] * x[j]);
    rows.push_back(r);
  }
  double s = 0;
  for (const auto &r : rows)
    for (size_t j = 0; j < r.size(); j++)
      s += r[j] / (1.0 + j);
  return s;
}

#define NV 9
#define ARRAY_TEST(F)                                                          \
  static double F##_eval(const double *p) {                                    \
    double *x = copy_of(p, NV);                                                \
    double r = F(x, NV);                                                       \
    free(x);                                                                   \
    return r;                                                                  \
  }                                                                            \
  static void F##_grad(const double *p, double *g) {                           \
    double *x = copy_of(p, NV);                                                \
    __enzyme_autodiff((void *)F, enzyme_dup, x, g, enzyme_const, NV);          \
    free(x);                                                                   \
  }                                                                            \
  static double F##_tangent(const double *p, int j) {                          \
    double *x = copy_of(p, NV), *tx = unit_slice(j, 0, NV);                    \
    double t =                                                                 \
        __enzyme_fwddiff((void *)F, enzyme_dup, x, tx, enzyme_const, NV);      \
    free(x), free(tx);                                                         \
    return t;                                                                  \
  }
ARRAY_TEST(pushback_sum)
ARRAY_TEST(sized_accumulate)
ARRAY_TEST(reserved_copy)
ARRAY_TEST(triangle)
#define COMPARE(F, p) compare(#F, NV, p, F##_eval, F##_grad, F##_tangent)

int main(void) {
  double p[NV];
  fill(p, NV, -1.0, 1.5, 22);
  COMPARE(pushback_sum, p);
  COMPARE(sized_accumulate, p);
  COMPARE(reserved_copy, p);
  COMPARE(triangle, p);
  return check_report();
}
