// Batch forward mode (enzyme_width) over functions that compute in memory
// they allocate themselves, as ordinary C++ does: std::vector scratch
// buffers swapped between sweeps, a local array, a heap block copied with
// memcpy and released with sized delete, a buffer that is null when empty,
// and a struct array mixing int and double (which keeps one shadow per
// lane). Since packed shadow lanes (Synthesis/PackedShadows.h) such memory
// has the W tangents of each element side by side; the Jacobians here must
// not change. A Jacobian of residuals is taken in one sweep (enzyme_dupv
// in, enzyme_dupnoneedv out, as ADBench's hand tracking would in batch
// mode), and gradients of scalar functions by seeding the identity.
// The batch sweep is also differentiated again (reverse over batch
// forward). Expected values: central finite differences, and analytic
// derivatives where they are short.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

extern int enzyme_width, enzyme_dupv, enzyme_dupnoneedv, enzyme_const,
    enzyme_dup;
struct Lanes4 {
  double d[4];
};
extern "C" Lanes4 __enzyme_fwddiff(void *, ...);
extern "C" void __enzyme_autodiff(void *, ...);
extern "C" void __enzyme_fwddiff_void(void *, ...) __asm__("__enzyme_fwddiff");

enum { N = 4 };

// Three sweeps of a three-point smoother over sin(x), ping-ponging two
// std::vector buffers, then sum_i a_i^2 x_i.
double smoothed(const double *x, int n) {
  std::vector<double> a(n), b(n);
  for (int i = 0; i < n; ++i)
    a[i] = std::sin(x[i]);
  for (int sweep = 0; sweep < 3; ++sweep) {
    for (int i = 0; i < n; ++i) {
      double l = a[i > 0 ? i - 1 : i], r = a[i + 1 < n ? i + 1 : i];
      b[i] = 0.25 * l + 0.5 * a[i] + 0.25 * r;
    }
    a.swap(b);
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * a[i] * x[i];
  return s;
}

// Horner's rule with coefficients c_k = x_k^2 kept in a local array, at
// t = x_0: p = sum_k c_k t^k.
double horner(const double *x, int n) {
  double c[N];
  for (int k = 0; k < n; ++k)
    c[k] = x[k] * x[k];
  double t = x[0], p = 0;
  for (int k = n - 1; k >= 0; --k)
    p = p * t + c[k];
  return p;
}

// A heap block filled, copied with memcpy into another (allocated only if
// n > 0, as std::vector does), then released with sized delete:
// sum_i copy_i exp(x_i) with copy_i = x_i^3.
double copied(const double *x, int n) {
  double *cube = new double[n];
  for (int i = 0; i < n; ++i)
    cube[i] = x[i] * x[i] * x[i];
  double *copy = n > 0
                     ? static_cast<double *>(::operator new(n * sizeof(double)))
                     : nullptr;
  std::memcpy(copy, cube, n * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += copy[i] * std::exp(x[i]);
  ::operator delete(copy, n * sizeof(double));
  delete[] cube;
  return s;
}

// Records mixing an int tag and a double (two element sizes: one shadow
// per lane): sum over records with tag 1 of v^2, tag 2 of 3 v.
struct Rec {
  int tag;
  double v;
};
double records(const double *x, int n) {
  std::vector<Rec> r(n);
  for (int i = 0; i < n; ++i)
    r[i] = Rec{1 + i % 2, x[i] * x[(i + 1) % n]};
  double s = 0;
  for (const Rec &q : r)
    s += q.tag == 1 ? q.v * q.v : 3 * q.v;
  return s;
}

// Residuals r_i = y_i - sum_j w_ij q_j with q_j = exp(-x_j) x_{j+1}
// computed into a scratch vector (a skinning-like blend): the Jacobian,
// column k in J[k * n ...], in one sweep.
void residuals(const double *x, double *r, int n) {
  std::vector<double> q(n);
  for (int j = 0; j < n; ++j)
    q[j] = std::exp(-x[j]) * x[(j + 1) % n];
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int j = 0; j < n; ++j)
      s += (1.0 + i + 2 * j) / (1 + i * j) * q[j];
    r[i] = 0.5 * i - s;
  }
}

// The sum of the batch sweep's four tangents of `copied` (its heap blocks
// packed), itself differentiated in reverse mode: the packed blocks then
// come from plain malloc (a derivative differentiated again).
double tangent_sum(const double *x) {
  double seeds[N * N] = {0};
  for (int k = 0; k < N; ++k)
    seeds[k * N + k] = 1;
  Lanes4 g = __enzyme_fwddiff((void *)copied, enzyme_width, N, enzyme_dupv,
                              sizeof(double) * N, x, seeds, enzyme_const, N);
  return g.d[0] + g.d[1] + g.d[2] + g.d[3];
}

// A state copied from the input (std::vector's range constructor: a copy
// from the caller's memory, whose shadows are one per lane), stepped in
// place, and copied to the output (std::copy): the copies move the lanes
// element by element into and out of the packed block.
void stepped(const double *x, double *out, int n) {
  std::vector<double> s(x, x + n);
  for (int t = 0; t < 3; ++t)
    for (int i = 1; i < n; ++i)
      s[i] += 0.1 * std::sin(s[i - 1]) * s[i];
  std::copy(s.begin(), s.end(), out);
}

// A block walked back from its end in bytes (char * arithmetic, negative
// offsets; review 38 found their packed shadow addresses poisoned by an
// unsigned no-wrap scaling): sum_k (k + 1) x_k^2 read backwards.
double walked_back(const double *x, int n) {
  double *a = static_cast<double *>(std::malloc(n * sizeof(double)));
  for (int k = 0; k < n; ++k)
    a[k] = (k + 1) * x[k] * x[k];
  char *end = reinterpret_cast<char *>(a + n);
  double s = 0;
  for (long off = -8; off >= -8L * n; off -= 8)
    s += *reinterpret_cast<double *>(end + off);
  std::free(a);
  return s;
}

// The squared Frobenius norm of stepped's Jacobian (one batch sweep, its
// lanes copied in and out of the packed block), differentiated again.
double jacobian_norm(const double *x) {
  double seeds[N * N] = {0}, out[N], J[N * N];
  for (int k = 0; k < N; ++k)
    seeds[k * N + k] = 1;
  __enzyme_fwddiff_void((void *)stepped, enzyme_width, N, enzyme_dupv,
                        sizeof(double) * N, x, seeds, enzyme_dupnoneedv,
                        sizeof(double) * N, out, J, enzyme_const, N);
  double s = 0;
  for (int i = 0; i < N * N; ++i)
    s += J[i] * J[i];
  return s;
}

typedef double (*Scalar)(const double *, int);

template <Scalar f>
static void check_gradient(const char *what, const double *x) {
  double seeds[N * N] = {0};
  for (int k = 0; k < N; ++k)
    seeds[k * N + k] = 1;
  Lanes4 g = __enzyme_fwddiff((void *)f, enzyme_width, N, enzyme_dupv,
                              sizeof(double) * N, x, seeds, enzyme_const, N);
  for (int k = 0; k < N; ++k) {
    double xp[N], xm[N], h = 1e-6;
    std::memcpy(xp, x, sizeof xp);
    std::memcpy(xm, x, sizeof xm);
    xp[k] += h;
    xm[k] -= h;
    check_close(what, g.d[k], (f(xp, N) - f(xm, N)) / (2 * h), 1e-6);
  }
}

int main() {
  const double x[N] = {0.3, -0.7, 1.1, 0.5};
  check_gradient<smoothed>("smoothed", x);
  check_gradient<horner>("horner", x);
  check_gradient<copied>("copied", x);
  check_gradient<records>("records", x);
  check_gradient<walked_back>("walked back", x);

  // Analytic: d copied / d x_k = (3 x_k^2 + x_k^3) exp(x_k).
  {
    double seeds[N * N] = {0};
    for (int k = 0; k < N; ++k)
      seeds[k * N + k] = 1;
    Lanes4 g = __enzyme_fwddiff((void *)copied, enzyme_width, N, enzyme_dupv,
                                sizeof(double) * N, x, seeds, enzyme_const, N);
    for (int k = 0; k < N; ++k)
      check_close("copied analytic", g.d[k],
                  (3 * x[k] * x[k] + x[k] * x[k] * x[k]) * std::exp(x[k]),
                  1e-12);
  }

  // The Jacobian of the residuals in one sweep against the analytic one:
  // dr_i/dx_k = -sum_j w_ij dq_j/dx_k, dq_j/dx_j = -q_j,
  // dq_j/dx_{j+1} = exp(-x_j).
  {
    double seeds[N * N] = {0}, r[N], J[N * N];
    for (int k = 0; k < N; ++k)
      seeds[k * N + k] = 1;
    __enzyme_fwddiff_void((void *)residuals, enzyme_width, N, enzyme_dupv,
                          sizeof(double) * N, x, seeds, enzyme_dupnoneedv,
                          sizeof(double) * N, r, J, enzyme_const, N);
    for (int k = 0; k < N; ++k)
      for (int i = 0; i < N; ++i) {
        double want = 0;
        for (int j = 0; j < N; ++j) {
          double w = (1.0 + i + 2 * j) / (1 + i * j), dq = 0;
          if (k == j)
            dq += -std::exp(-x[j]) * x[(j + 1) % N];
          if (k == (j + 1) % N)
            dq += std::exp(-x[j]);
          want -= w * dq;
        }
        check_close("residual Jacobian", J[k * N + i], want, 1e-12);
      }
  }

  // The Jacobian of `stepped` in one sweep against finite differences.
  {
    double seeds[N * N] = {0}, out[N], J[N * N];
    for (int k = 0; k < N; ++k)
      seeds[k * N + k] = 1;
    __enzyme_fwddiff_void((void *)stepped, enzyme_width, N, enzyme_dupv,
                          sizeof(double) * N, x, seeds, enzyme_dupnoneedv,
                          sizeof(double) * N, out, J, enzyme_const, N);
    for (int k = 0; k < N; ++k) {
      double xp[N], xm[N], op[N], om[N], h = 1e-6;
      std::memcpy(xp, x, sizeof xp);
      std::memcpy(xm, x, sizeof xm);
      xp[k] += h;
      xm[k] -= h;
      stepped(xp, op, N);
      stepped(xm, om, N);
      for (int i = 0; i < N; ++i)
        check_close("stepped Jacobian", J[k * N + i], (op[i] - om[i]) / (2 * h),
                    1e-6);
    }
  }

  // Reverse over the batch sweep, against finite differences.
  {
    double xv[N], dx[N] = {0};
    std::memcpy(xv, x, sizeof xv);
    __enzyme_autodiff((void *)tangent_sum, enzyme_dup, xv, dx);
    for (int k = 0; k < N; ++k) {
      double xp[N], xm[N], h = 1e-6;
      std::memcpy(xp, x, sizeof xp);
      std::memcpy(xm, x, sizeof xm);
      xp[k] += h;
      xm[k] -= h;
      check_close("reverse over batch forward", dx[k],
                  (tangent_sum(xp) - tangent_sum(xm)) / (2 * h), 1e-6);
    }
  }
  {
    double xv[N], dx[N] = {0};
    std::memcpy(xv, x, sizeof xv);
    __enzyme_autodiff((void *)jacobian_norm, enzyme_dup, xv, dx);
    for (int k = 0; k < N; ++k) {
      double xp[N], xm[N], h = 1e-6;
      std::memcpy(xp, x, sizeof xp);
      std::memcpy(xm, x, sizeof xm);
      xp[k] += h;
      xm[k] -= h;
      check_close("reverse over batch forward with lane copies", dx[k],
                  (jacobian_norm(xp) - jacobian_norm(xm)) / (2 * h), 1e-6);
    }
  }
  return check_report();
}
