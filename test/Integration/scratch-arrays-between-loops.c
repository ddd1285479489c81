// Scratch arrays that one loop fills and later loops read, inside a loop
// over points (GMM's x - mu, then the triangular Q (x - mu), a 2-D block,
// a float buffer), are computed again where they are read instead of being
// taped (Synthesis/StoredValueForwarding.h). Beside them, shapes that look
// alike but read something else: an element overwritten between the loops,
// a first loop that writes fewer elements than the second reads, a read
// loop walking backwards, a first loop under a condition of its own, a
// store loop that reads what it writes, and stores that overlap the one
// before. Every gradient is checked against
// central finite differences, at every -O level and in the opt flow.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %plain_cc -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cc %t.bc -lm -o %to && %to | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

enum { D = 5, NP = 7 };

// GMM's inner part: xc = x - mu, qxc = L xc (L lower triangular with exp
// on the diagonal), accumulate |qxc|^2 weighted.
static void gmmLike(const double *restrict x, const double *restrict mu,
                    const double *restrict l, double *restrict out) {
  double *xc = malloc(D * sizeof(double));
  double *qxc = malloc(D * sizeof(double));
  double s = 0;
  for (int p = 0; p < NP; p++) {
    for (int i = 0; i < D; i++)
      xc[i] = x[p * D + i] - mu[i];
    for (int i = 0; i < D; i++)
      qxc[i] = exp(l[i * D + i]) * xc[i];
    for (int i = 0; i < D; i++)
      for (int j = i + 1; j < D; j++)
        qxc[j] += l[j * D + i] * xc[i];
    for (int i = 0; i < D; i++)
      s += qxc[i] * qxc[i] + sin(xc[i]);
  }
  *out = s;
  free(xc);
  free(qxc);
}

// A 2-D scratch block filled row by row, then read column-major.
static void block2d(const double *restrict x, const double *restrict mu,
                    const double *restrict l, double *restrict out) {
  double b[D * D];
  double s = 0;
  for (int p = 0; p < NP; p++) {
    for (int i = 0; i < D * D; i++)
      b[i] = x[p * D + i % D] * l[i] + mu[i / D];
    for (int k = 0; k < D * D; k++)
      s += b[k] * b[k] * mu[k % D];
  }
  *out = s;
}

// Floats, and a run-time length.
static void floats(const double *restrict x, const double *restrict mu,
                   const double *restrict l, double *restrict out, int n) {
  float *t = malloc(n * sizeof(float));
  double s = 0;
  for (int p = 0; p < NP; p++) {
    for (int i = 0; i < n; i++)
      t[i] = (float)(x[p * D + i] * mu[i]);
    for (int i = 0; i < n; i++)
      s += (double)(t[i] * t[i]) * l[i];
  }
  *out = s;
  free(t);
}

// Look-alikes whose later loop reads something other than what the first
// loop stored at the same index.
static void lookAlikes(const double *restrict x, const double *restrict mu,
                       const double *restrict l, double *restrict out, int n,
                       int skip) {
  double *a = calloc(D, sizeof(double));
  double s = 0;
  for (int p = 0; p < NP; p++) {
    // Overwritten between the loops.
    for (int i = 0; i < n; i++)
      a[i] = x[p * D + i] - mu[i];
    a[1] = x[p * D] * l[2];
    for (int i = 0; i < n; i++)
      s += a[i] * a[i] * l[i];
    // One element fewer written than read: a[n - 1] keeps its old value.
    for (int i = 0; i < n - 1; i++)
      a[i] = x[p * D + i] * mu[i];
    for (int i = 0; i < n; i++)
      s += a[i] * a[i] * l[i];
    // The same, the reads under a condition that implies the writes ran.
    for (int i = 0; i < n - 1; i++)
      a[i] = x[p * D + i] * l[i];
    if (n > 1)
      for (int i = 0; i < n; i++)
        s += a[i] * a[i] * mu[i];
    // Read backwards.
    for (int i = 0; i < n; i++)
      a[i] = x[p * D + i] + l[i];
    for (int i = n - 1; i >= 0; i--)
      s += a[i] * a[i] * mu[n - 1 - i];
    // A first loop under a condition of its own.
    if (p % 2 == skip)
      for (int i = 0; i < n; i++)
        a[i] = x[p * D + i] * x[p * D + i];
    for (int i = 0; i < n; i++)
      s += a[i] * l[i];
    // A store loop that reads what it wrote (a running sum).
    a[0] = x[p * D];
    for (int i = 1; i < n; i++)
      a[i] = a[i - 1] * mu[i] + x[p * D + i];
    for (int i = 0; i < n; i++)
      s += a[i] * a[i];
  }
  *out = s;
  free(a);
}

// Doubles stored 4 bytes apart (review28): each store overwrites half of
// the one before, so a later read at the same index is not what was stored
// there.
static void overlapping(const double *restrict x, double *restrict out, int n) {
  char *buf = malloc(8 * n + 16);
  double s = 0;
  for (int p = 0; p < 2; p++) {
    for (int i = 0; i < n; i++) {
      double v = x[i] * 3.0 + p;
      memcpy(buf + 4 * i, &v, 8);
    }
    for (int i = 0; i < n; i++) {
      double v;
      memcpy(&v, buf + 4 * i, 8);
      s += v * x[i];
    }
  }
  *out = s;
  free(buf);
}

typedef void (*Fn)(const double *, const double *, const double *, double *);
// Lengths known only at run time keep the loops from being unrolled away.
int scratchLength = D;
static void callFloats(const double *restrict x, const double *restrict mu,
                       const double *restrict l, double *restrict out) {
  floats(x, mu, l, out, scratchLength);
}
static void callOverlapping(const double *restrict x, const double *restrict mu,
                            const double *restrict l, double *restrict out) {
  overlapping(x, out, scratchLength);
}
static void callLookAlikes(const double *restrict x, const double *restrict mu,
                           const double *restrict l, double *restrict out) {
  lookAlikes(x, mu, l, out, scratchLength, 1);
}

typedef void (*GradFn)(double *, double *, double *, double *, double *,
                       double *, double *, double *);
#define DEFINE_GRAD(f)                                                         \
  static void grad_##f(double *x, double *dx, double *mu, double *dmu,         \
                       double *l, double *dl, double *out, double *dout) {     \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, mu, dmu,       \
                      enzyme_dup, l, dl, enzyme_dup, out, dout);               \
  }
DEFINE_GRAD(gmmLike)
DEFINE_GRAD(block2d)
DEFINE_GRAD(callFloats)
DEFINE_GRAD(callLookAlikes)
DEFINE_GRAD(callOverlapping)

static double value(Fn f, const double *x, const double *mu, const double *l) {
  double out = 0;
  f(x, mu, l, &out);
  return out;
}

// The value the derivative computes beside the gradient is the function's.
static void checkPrimal(const char *name, Fn f, GradFn grad) {
  double x[NP * D], mu[D * D], l[D * D];
  for (int i = 0; i < NP * D; i++)
    x[i] = 0.3 * sin(1.7 * i + 0.2);
  for (int i = 0; i < D * D; i++) {
    mu[i] = 0.2 * cos(0.9 * i);
    l[i] = 0.1 * sin(0.4 * i + 1.0);
  }
  double dx[NP * D] = {0}, dmu[D * D] = {0}, dl[D * D] = {0};
  double out = 0, dout = 1;
  grad(x, dx, mu, dmu, l, dl, &out, &dout);
  char what[64];
  snprintf(what, sizeof what, "%s value", name);
  check_close(what, out, value(f, x, mu, l), 0);
}

static void checkGradient(const char *name, Fn f, GradFn grad, double tol) {
  double x[NP * D], mu[D * D], l[D * D];
  for (int i = 0; i < NP * D; i++)
    x[i] = 0.3 * sin(1.7 * i + 0.2);
  for (int i = 0; i < D * D; i++) {
    mu[i] = 0.2 * cos(0.9 * i);
    l[i] = 0.1 * sin(0.4 * i + 1.0);
  }
  double dx[NP * D] = {0}, dmu[D * D] = {0}, dl[D * D] = {0};
  double out = 0, dout = 1;
  grad(x, dx, mu, dmu, l, dl, &out, &dout);
  double *args[3] = {x, mu, l}, *grads[3] = {dx, dmu, dl};
  int sizes[3] = {NP * D, D * D, D * D};
  char what[64];
  for (int a = 0; a < 3; a++)
    for (int i = 0; i < sizes[a]; i++) {
      double h = 1e-6, keep = args[a][i];
      args[a][i] = keep + h;
      double fp = value(f, x, mu, l);
      args[a][i] = keep - h;
      double fm = value(f, x, mu, l);
      args[a][i] = keep;
      snprintf(what, sizeof what, "%s d/d arg%d[%d]", name, a, i);
      check_close(what, grads[a][i], (fp - fm) / (2 * h), tol);
    }
}

int main(void) {
  checkGradient("gmmLike", gmmLike, grad_gmmLike, 1e-6);
  checkGradient("block2d", block2d, grad_block2d, 1e-6);
  checkGradient("floats", callFloats, grad_callFloats, 2e-3);
  checkGradient("lookAlikes", callLookAlikes, grad_callLookAlikes, 1e-6);
  checkPrimal("gmmLike", gmmLike, grad_gmmLike);
  checkPrimal("floats", callFloats, grad_callFloats);
  checkPrimal("lookAlikes", callLookAlikes, grad_callLookAlikes);
  // Its reads mix the bytes of two doubles: only the value is checked.
  checkPrimal("overlapping", callOverlapping, grad_callOverlapping);
  return check_report();
}
