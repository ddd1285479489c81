// C++ value classes whose copies the IR does not type (issue 14 items 2
// and 3): a small Matrix3 class copied by value and returned, an
// expression-template vector sum, and a simplified hand-tracking objective
// in the style of ADBench's "hand" problem (a model of bones with by-value
// matrices, a vector-like array class allocating `n > 0 ? new T[n] :
// nullptr` for both structs and doubles, integer parent indices copied
// around). Reverse and forward mode against central finite differences, at
// -O0..-O3.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>

extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

/* The gradient check of gradcheck.h, in C++: reverse against a central
   finite difference, forward against reverse. */
static char label_[256];
#define LABEL(...) (snprintf(label_, sizeof label_, __VA_ARGS__), label_)
typedef double (*eval_fn)(const double *p);
typedef void (*grad_fn)(const double *p, double *g);
typedef double (*tangent_fn)(const double *p, int j);
static void compare(const char *name, int N, const double *p, eval_fn eval,
                    grad_fn grad, tangent_fn tangent) {
  double g[64] = {0}, q[64];
  grad(p, g);
  for (int j = 0; j < N; j++) {
    const double h = 1e-6;
    std::memcpy(q, p, N * sizeof *q);
    q[j] = p[j] + h;
    double fp = eval(q);
    q[j] = p[j] - h;
    double fm = eval(q);
    check_close(LABEL("%s: reverse vs finite difference, d/dp[%d]", name, j),
                g[j], (fp - fm) / (2 * h), 1e-6);
    check_close(LABEL("%s: forward vs reverse, d/dp[%d]", name, j),
                tangent(p, j), g[j], 1e-10);
  }
}
static double *copy_of(const double *src, int n) {
  double *d = static_cast<double *>(std::malloc(n * sizeof *d));
  std::memcpy(d, src, n * sizeof *d);
  return d;
}
static double *unit_slice(int j, int off, int n) {
  double *d = static_cast<double *>(std::calloc(n, sizeof *d));
  if (j >= off && j < off + n)
    d[j - off] = 1.0;
  return d;
}
static void fill(double *p, int n, double lo, double hi, int seed) {
  for (int i = 0; i < n; i++)
    p[i] = lo + (hi - lo) * (0.5 + 0.5 * std::sin(12.9898 * (i + 1) +
                                                  78.233 * seed));
}

/* ---- a small matrix class copied by value ---- */
struct Matrix3 {
  double m[3][3];
  static Matrix3 identity() {
    Matrix3 r;
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        r.m[i][j] = i == j;
    return r;
  }
  static Matrix3 rotZ(double a) {
    Matrix3 r = identity();
    r.m[0][0] = std::cos(a), r.m[0][1] = -std::sin(a);
    r.m[1][0] = std::sin(a), r.m[1][1] = std::cos(a);
    return r;
  }
  Matrix3 operator*(const Matrix3 &o) const {
    Matrix3 r;
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        double s = 0;
        for (int k = 0; k < 3; k++)
          s += m[i][k] * o.m[k][j];
        r.m[i][j] = s;
      }
    return r;
  }
  Matrix3 transposed() const {
    Matrix3 r;
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        r.m[i][j] = m[j][i];
    return r;
  }
};

/* x = [a, b, c, m00..m22]: a chain of products of by-value matrices */
double matrix_chain(const double *x) {
  Matrix3 A;
  std::memcpy(A.m, x + 3, sizeof A.m);
  Matrix3 R = Matrix3::rotZ(x[0]) * A;
  Matrix3 S = R;
  S = S * Matrix3::rotZ(x[1]).transposed();
  Matrix3 T = S * R.transposed() * Matrix3::rotZ(x[2]);
  double s = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      s += (i + 2 * j + 1) * T.m[i][j] + S.m[i][j] * S.m[j][i];
  return s;
}

#define NM 12
static double mc_eval(const double *p) { return matrix_chain(p); }
static void mc_grad(const double *p, double *g) {
  double *x = copy_of(p, NM);
  __enzyme_autodiff((void *)matrix_chain, enzyme_dup, x, g);
  free(x);
}
static double mc_tangent(const double *p, int j) {
  double *x = copy_of(p, NM), *e = unit_slice(j, 0, NM);
  double t = __enzyme_fwddiff((void *)matrix_chain, enzyme_dup, x, e);
  free(x), free(e);
  return t;
}

/* ---- an expression-template vector sum ---- */
template <int N> struct Vec {
  double v[N];
  double operator[](int i) const { return v[i]; }
  template <class E> Vec &operator=(const E &e) {
    for (int i = 0; i < N; i++)
      v[i] = e[i];
    return *this;
  }
};
template <class L, class R> struct Sum {
  const L &l;
  const R &r;
  double operator[](int i) const { return l[i] + r[i]; }
};
template <class L> struct Scaled {
  double k;
  const L &l;
  double operator[](int i) const { return k * l[i]; }
};
template <class L, class R> Sum<L, R> operator+(const L &l, const R &r) {
  return {l, r};
}
template <class L> Scaled<L> operator*(double k, const L &l) { return {k, l}; }

#define NV 4
double expr_sum(const double *x) {
  Vec<NV> a, b, c;
  for (int i = 0; i < NV; i++)
    a.v[i] = x[i], b.v[i] = std::sin(x[(i + 1) % NV]);
  c = a + 2.0 * b + a;
  Vec<NV> d = c; /* copied by value */
  d = d + 0.5 * c;
  double s = 0;
  for (int i = 0; i < NV; i++)
    s += d[i] * c[i];
  return s;
}

static double es_eval(const double *p) { return expr_sum(p); }
static void es_grad(const double *p, double *g) {
  double *x = copy_of(p, NV);
  __enzyme_autodiff((void *)expr_sum, enzyme_dup, x, g);
  free(x);
}
static double es_tangent(const double *p, int j) {
  double *x = copy_of(p, NV), *e = unit_slice(j, 0, NV);
  double t = __enzyme_fwddiff((void *)expr_sum, enzyme_dup, x, e);
  free(x), free(e);
  return t;
}

/* ---- a simplified hand-tracking objective ---- */
template <class T> struct Array {
  int n;
  T *data;
  explicit Array(int n) : n(n), data(n > 0 ? new T[n] : nullptr) {}
  Array(const Array &o) : n(o.n), data(o.n > 0 ? new T[o.n] : nullptr) {
    for (int i = 0; i < n; i++)
      data[i] = o.data[i];
  }
  Array &operator=(const Array &) = delete;
  ~Array() { delete[] data; }
  T &operator[](int i) { return data[i]; }
  const T &operator[](int i) const { return data[i]; }
};

struct Bone {
  int parent;
  int level;
  Matrix3 base;
};

struct HandModel {
  Array<Bone> bones;
  Array<double> weights; /* per bone */
  Array<int> order;
  explicit HandModel(int n) : bones(n), weights(n), order(n) {}
};

static Matrix3 pose_of(const double *theta, int i) {
  return Matrix3::rotZ(theta[2 * i]) * Matrix3::rotZ(0.5 * theta[2 * i + 1]);
}

/* theta: 2 angles per bone; the model's bones are built here as a user
   would (constants), then chained: absolute = absolute[parent] * base *
   pose. */
#define NB 4
double hand_objective(const double *theta, const double *points, int n) {
  HandModel model(n);
  for (int i = 0; i < n; i++) {
    Bone b;
    b.parent = i - 1;
    b.level = i;
    b.base = Matrix3::rotZ(0.1 * (i + 1));
    model.bones[i] = b; /* a struct of ints and a matrix, copied */
    model.weights[i] = 1.0 / (i + 1);
    model.order[i] = n - 1 - i;
  }
  Array<Bone> reordered(model.bones); /* copy constructor: element copies */
  Array<int> parents(n), order(model.order); /* int fields, int arrays */
  for (int i = 0; i < n; i++)
    parents[i] = reordered[i].parent;
  Array<Matrix3> absolute(n);
  for (int i = 0; i < n; i++) {
    const Bone &b = reordered[i];
    Matrix3 rel = b.base * pose_of(theta, i);
    absolute[i] = parents[i] >= 0 ? absolute[parents[i]] * rel : rel;
  }
  double err = 0;
  for (int k = 0; k < n; k++) {
    int i = order[k];
    const Matrix3 M = absolute[i];
    for (int r = 0; r < 3; r++) {
      double y = 0;
      for (int c = 0; c < 3; c++)
        y += M.m[r][c] * (c + 1);
      double d = y - points[3 * i + r];
      err += model.weights[i] * reordered[i].level * d * d + d;
    }
  }
  return err;
}

static double pts[3 * NB];
static double ho_eval(const double *p) { return hand_objective(p, pts, NB); }
static void ho_grad(const double *p, double *g) {
  double *x = copy_of(p, 2 * NB);
  __enzyme_autodiff((void *)hand_objective, enzyme_dup, x, g, enzyme_const,
                    pts, enzyme_const, NB);
  free(x);
}
static double ho_tangent(const double *p, int j) {
  double *x = copy_of(p, 2 * NB), *e = unit_slice(j, 0, 2 * NB);
  double t = __enzyme_fwddiff((void *)hand_objective, enzyme_dup, x, e,
                              enzyme_const, pts, enzyme_const, NB);
  free(x), free(e);
  return t;
}

int main() {
  double p[NM];
  fill(p, NM, -1.0, 1.0, 7);
  fill(pts, 3 * NB, -2.0, 2.0, 3);
  compare("matrix_chain (Matrix3 by value)", NM, p, mc_eval, mc_grad,
          mc_tangent);
  compare("expr_sum (expression templates)", NV, p, es_eval, es_grad,
          es_tangent);
  compare("hand_objective", 2 * NB, p, ho_eval, ho_grad, ho_tangent);
  return check_report();
}
