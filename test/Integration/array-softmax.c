// Softmax cross-entropy with max-subtraction for numerical stability, in
// reverse and forward mode against central finite differences: on a logit
// vector with an integer label, with a target distribution (constant array)
// and the probabilities written to an output array, and through a linear
// classifier (logits = W x + b) over a small batch. The max is taken by a
// data-dependent comparison; its derivative cancels exactly.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_autodiff_d(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_v(void *, ...);

#include "Inputs/gradcheck.h"

/* -log softmax(z)[label] */
double xent(const double *z, int n, int label) {
  double m = z[0];
  for (int i = 1; i < n; i++)
    if (z[i] > m)
      m = z[i];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(z[i] - m);
  return log(s) - (z[label] - m);
}

/* probs = softmax(z); returns -sum t log probs */
double xent_probs(const double *z, const double *t, double *probs, int n) {
  double m = z[0];
  for (int i = 1; i < n; i++)
    m = fmax(m, z[i]);
  double s = 0;
  for (int i = 0; i < n; i++) {
    probs[i] = exp(z[i] - m);
    s += probs[i];
  }
  double loss = 0;
  for (int i = 0; i < n; i++) {
    probs[i] /= s;
    loss -= t[i] * log(probs[i]);
  }
  return loss;
}

/* Mean cross-entropy of a linear classifier over a batch:
   logits_b = W x_b + c, W is nc x nd. */
double classifier_loss(const double *W, const double *c, const double *X,
                       const int *labels, int nb, int nc, int nd) {
  double total = 0;
  double *z = malloc(nc * sizeof *z);
  for (int b = 0; b < nb; b++) {
    for (int k = 0; k < nc; k++) {
      double a = c[k];
      for (int d = 0; d < nd; d++)
        a += W[k * nd + d] * X[b * nd + d];
      z[k] = a;
    }
    total += xent(z, nc, labels[b]);
  }
  free(z);
  return total / nb;
}

#define NZ 6
static int label = 2;

static double xent_eval(const double *p) {
  double *z = copy_of(p, NZ);
  double r = xent(z, NZ, label);
  free(z);
  return r;
}
static void xent_grad(const double *p, double *g) {
  double *z = copy_of(p, NZ);
  __enzyme_autodiff((void *)xent, enzyme_dup, z, g, enzyme_const, NZ,
                    enzyme_const, label);
  free(z);
}
static double xent_tangent(const double *p, int j) {
  double *z = copy_of(p, NZ), *tz = unit_slice(j, 0, NZ);
  double t = __enzyme_fwddiff((void *)xent, enzyme_dup, z, tz, enzyme_const, NZ,
                              enzyme_const, label);
  free(z), free(tz);
  return t;
}

static void xent_analytic(const double *p) {
  /* d/dz = softmax(z) - onehot(label) */
  double z[NZ], dz[NZ] = {0}, m = p[0], s = 0;
  memcpy(z, p, sizeof z);
  __enzyme_autodiff((void *)xent, enzyme_dup, z, dz, enzyme_const, NZ,
                    enzyme_const, label);
  for (int i = 1; i < NZ; i++)
    m = fmax(m, z[i]);
  for (int i = 0; i < NZ; i++)
    s += exp(z[i] - m);
  for (int i = 0; i < NZ; i++)
    check_close(LABEL("xent: dz[%d] = softmax - onehot", i), dz[i],
                exp(z[i] - m) / s - (i == label), 1e-14);
}

static double target[NZ] = {0.1, 0.05, 0.4, 0.2, 0.15, 0.1};
/* p = [z (NZ), probs_in (NZ)] */
static double xp_eval(const double *p) {
  double *z = copy_of(p, NZ), *pr = copy_of(p + NZ, NZ);
  double r = xent_probs(z, target, pr, NZ);
  free(z), free(pr);
  return r;
}
static void xp_grad(const double *p, double *g) {
  double *z = copy_of(p, NZ), *pr = copy_of(p + NZ, NZ);
  __enzyme_autodiff((void *)xent_probs, enzyme_dup, z, g, enzyme_const, target,
                    enzyme_dup, pr, g + NZ, enzyme_const, NZ);
  free(z), free(pr);
}
static double xp_tangent(const double *p, int j) {
  double *z = copy_of(p, NZ), *pr = copy_of(p + NZ, NZ);
  double *tz = unit_slice(j, 0, NZ), *tp = unit_slice(j, NZ, NZ);
  double t =
      __enzyme_fwddiff((void *)xent_probs, enzyme_dup, z, tz, enzyme_const,
                       target, enzyme_dup, pr, tp, enzyme_const, NZ);
  free(z), free(pr), free(tz), free(tp);
  return t;
}

#define NB 3
#define NC 4
#define ND 3
#define NW (NC * ND)
#define NX (NB * ND)
/* p = [W, c, X] */
#define NPC (NW + NC + NX)
static const int labels[NB] = {1, 3, 0};
static double cl_eval(const double *p) {
  double *W = copy_of(p, NW), *c = copy_of(p + NW, NC),
         *X = copy_of(p + NW + NC, NX);
  double r = classifier_loss(W, c, X, labels, NB, NC, ND);
  free(W), free(c), free(X);
  return r;
}
static void cl_grad(const double *p, double *g) {
  double *W = copy_of(p, NW), *c = copy_of(p + NW, NC),
         *X = copy_of(p + NW + NC, NX);
  __enzyme_autodiff((void *)classifier_loss, enzyme_dup, W, g, enzyme_dup, c,
                    g + NW, enzyme_dup, X, g + NW + NC, enzyme_const, labels,
                    enzyme_const, NB, enzyme_const, NC, enzyme_const, ND);
  free(W), free(c), free(X);
}
static double cl_tangent(const double *p, int j) {
  double *W = copy_of(p, NW), *c = copy_of(p + NW, NC),
         *X = copy_of(p + NW + NC, NX);
  double *tW = unit_slice(j, 0, NW), *tc = unit_slice(j, NW, NC),
         *tX = unit_slice(j, NW + NC, NX);
  double t =
      __enzyme_fwddiff((void *)classifier_loss, enzyme_dup, W, tW, enzyme_dup,
                       c, tc, enzyme_dup, X, tX, enzyme_const, labels,
                       enzyme_const, NB, enzyme_const, NC, enzyme_const, ND);
  free(W), free(c), free(X), free(tW), free(tc), free(tX);
  return t;
}

int main(void) {
  double p[NPC];
  fill(p, 2 * NZ, -2.0, 3.0, 5);
  compare("xent", NZ, p, xent_eval, xent_grad, xent_tangent);
  for (label = 0; label < NZ; label++)
    xent_analytic(p);
  /* Large logits: without the max-subtraction exp would overflow. */
  double big[NZ];
  for (int i = 0; i < NZ; i++)
    big[i] = 800 + p[i];
  label = 4;
  compare("xent, logits near 800", NZ, big, xent_eval, xent_grad, xent_tangent);
  xent_analytic(big);
  compare("xent_probs", 2 * NZ, p, xp_eval, xp_grad, xp_tangent);
  fill(p, NPC, -1.0, 1.0, 6);
  compare("classifier_loss", NPC, p, cl_eval, cl_grad, cl_tangent);
  return check_report();
}
