// Hessian-vector products by forward-over-reverse: __enzyme_fwddiff of a
// function that calls __enzyme_autodiff (a nested request, resolved by the
// plugin whatever the order). The function is the squared-error loss of a
// small MLP (3 inputs, 4 tanh hidden units, 1 linear output, 3 samples; the
// 21 weights and biases packed in one array), computed by separate layer
// functions. Checked at every -O level:
//   - the reverse-mode gradient against a gradient written by hand
//     (backpropagation), itself checked against central finite differences
//     of the loss;
//   - H v for the weights, for several v, against central finite differences
//     of the hand-written gradient; every column H e_j, and the symmetry of
//     the Hessian assembled from them;
//   - the input-space Hessian (d^2 loss / dx^2 of one sample) the same way;
//   - H v when the inner request is reached through a non-inlined call, and
//     when the gradient function does not zero its output itself (forward
//     shadows of += accumulate into the caller's zeroed tangent);
//   - an n-dimensional Rosenbrock function against its analytic Hessian.
// Expected values never come from the program's own derivatives.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <string.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

static char label_[128];
#define LBL(...) (snprintf(label_, sizeof label_, __VA_ARGS__), label_)

#define NI 3
#define NH 4
#define NS 3
#define NP (NH * NI + NH + NH + 1) /* 21 */
#define W1 0
#define B1 (NH * NI)
#define W2 (B1 + NH)
#define B2 (W2 + NH)

/* ---- the model, in separate functions ---- */
__attribute__((noinline)) void hidden(const double *th, const double *x,
                                      double *a) {
  for (int h = 0; h < NH; h++) {
    double z = th[B1 + h];
    for (int i = 0; i < NI; i++)
      z += th[W1 + h * NI + i] * x[i];
    a[h] = tanh(z);
  }
}
__attribute__((noinline)) double output(const double *th, const double *a) {
  double o = th[B2];
  for (int h = 0; h < NH; h++)
    o += th[W2 + h] * a[h];
  return o;
}
double mlp_loss(const double *th, const double *X, const double *Y) {
  double L = 0;
  for (int s = 0; s < NS; s++) {
    double a[NH];
    hidden(th, X + s * NI, a);
    double e = output(th, a) - Y[s];
    L += 0.5 * e * e;
  }
  return L;
}
/* The loss of one sample as a function of its input x. */
double sample_loss(const double *x, const double *th, double y) {
  double a[NH];
  hidden(th, x, a);
  double e = output(th, a) - y;
  return 0.5 * e * e;
}

/* ---- gradients by reverse mode (the inner requests) ---- */
void grad_theta(const double *th, double *g, const double *X,
                const double *Y) {
  for (int j = 0; j < NP; j++)
    g[j] = 0;
  __enzyme_autodiff((void *)mlp_loss, enzyme_dup, th, g, enzyme_const, X,
                    enzyme_const, Y);
}
/* Accumulates into g: the caller zeroes it. */
void grad_theta_acc(const double *th, double *g, const double *X,
                    const double *Y) {
  __enzyme_autodiff((void *)mlp_loss, enzyme_dup, th, g, enzyme_const, X,
                    enzyme_const, Y);
}
__attribute__((noinline)) void grad_theta_nc(const double *th, double *g,
                                             const double *X,
                                             const double *Y) {
  grad_theta(th, g, X, Y);
}
void through_call(const double *th, double *g, const double *X,
                  const double *Y) {
  grad_theta_nc(th, g, X, Y);
}
void grad_x(const double *x, double *gx, const double *th, double y) {
  for (int i = 0; i < NI; i++)
    gx[i] = 0;
  __enzyme_autodiff((void *)sample_loss, enzyme_dup, x, gx, enzyme_const, th,
                    enzyme_const, y);
}

/* HVP of grad_theta-like function f along v: hv = H v */
typedef void (*gradfn)(const double *, double *, const double *,
                       const double *);
static void hvp_theta(int which, const double *th, const double *v,
                      double *hv, const double *X, const double *Y) {
  double thc[NP], g[NP] = {0};
  memcpy(thc, th, sizeof thc);
  memset(hv, 0, NP * sizeof *hv);
  if (which == 0)
    __enzyme_fwddiff((void *)grad_theta, enzyme_dup, thc, v, enzyme_dup, g,
                     hv, enzyme_const, X, enzyme_const, Y);
  else if (which == 1)
    __enzyme_fwddiff((void *)through_call, enzyme_dup, thc, v, enzyme_dup, g,
                     hv, enzyme_const, X, enzyme_const, Y);
  else
    __enzyme_fwddiff((void *)grad_theta_acc, enzyme_dup, thc, v, enzyme_dup,
                     g, hv, enzyme_const, X, enzyme_const, Y);
}

/* ---- the reference: backpropagation by hand ---- */
static void hand_grad(const double *th, double *g, const double *X,
                      const double *Y) {
  memset(g, 0, NP * sizeof *g);
  for (int s = 0; s < NS; s++) {
    const double *x = X + s * NI;
    double a[NH], o = th[B2];
    for (int h = 0; h < NH; h++) {
      double z = th[B1 + h];
      for (int i = 0; i < NI; i++)
        z += th[W1 + h * NI + i] * x[i];
      a[h] = tanh(z);
      o += th[W2 + h] * a[h];
    }
    double e = o - Y[s];
    g[B2] += e;
    for (int h = 0; h < NH; h++) {
      g[W2 + h] += e * a[h];
      double dz = e * th[W2 + h] * (1 - a[h] * a[h]);
      g[B1 + h] += dz;
      for (int i = 0; i < NI; i++)
        g[W1 + h * NI + i] += dz * x[i];
    }
  }
}
static void hand_grad_x(const double *x, double *gx, const double *th,
                        double y) {
  double a[NH], o = th[B2];
  for (int h = 0; h < NH; h++) {
    double z = th[B1 + h];
    for (int i = 0; i < NI; i++)
      z += th[W1 + h * NI + i] * x[i];
    a[h] = tanh(z);
    o += th[W2 + h] * a[h];
  }
  double e = o - y;
  for (int i = 0; i < NI; i++)
    gx[i] = 0;
  for (int h = 0; h < NH; h++)
    for (int i = 0; i < NI; i++)
      gx[i] += e * th[W2 + h] * (1 - a[h] * a[h]) * th[W1 + h * NI + i];
}

/* central difference of the hand gradient along v: (g(th+hv)-g(th-hv))/2h */
static void fd_hvp(const double *th, const double *v, double *out,
                   const double *X, const double *Y) {
  double p[NP], m[NP], gp[NP], gm[NP], h = 1e-5;
  for (int j = 0; j < NP; j++) {
    p[j] = th[j] + h * v[j];
    m[j] = th[j] - h * v[j];
  }
  hand_grad(p, gp, X, Y);
  hand_grad(m, gm, X, Y);
  for (int j = 0; j < NP; j++)
    out[j] = (gp[j] - gm[j]) / (2 * h);
}

/* ---- Rosenbrock: f = sum_i 100 (x_{i+1} - x_i^2)^2 + (1 - x_i)^2 ---- */
#define NR 5
double rosen(const double *x) {
  double f = 0;
  for (int i = 0; i + 1 < NR; i++) {
    double a = x[i + 1] - x[i] * x[i], b = 1 - x[i];
    f += 100 * a * a + b * b;
  }
  return f;
}
void rosen_grad(const double *x, double *g) {
  for (int i = 0; i < NR; i++)
    g[i] = 0;
  __enzyme_autodiff((void *)rosen, enzyme_dup, x, g);
}
static void rosen_hessian(const double *x, double H[NR][NR]) {
  memset(H, 0, sizeof(double) * NR * NR);
  for (int i = 0; i + 1 < NR; i++) {
    /* term 100 (x_{i+1} - x_i^2)^2 + (1 - x_i)^2 */
    H[i][i] += 1200 * x[i] * x[i] - 400 * x[i + 1] + 2;
    H[i][i + 1] += -400 * x[i];
    H[i + 1][i] += -400 * x[i];
    H[i + 1][i + 1] += 200;
  }
}

int main(void) {
  double th[NP], X[NS * NI], Y[NS];
  for (int j = 0; j < NP; j++)
    th[j] = 0.6 * sin(1.7 * j + 0.3) + 0.1;
  for (int k = 0; k < NS * NI; k++)
    X[k] = cos(0.9 * k + 0.2);
  Y[0] = 0.3;
  Y[1] = -0.5;
  Y[2] = 1.1;

  /* 1. the hand gradient against FD of the loss, reverse mode against it */
  double gh[NP], g[NP];
  hand_grad(th, gh, X, Y);
  for (int j = 0; j < NP; j++) {
    double p[NP], m[NP], h = 1e-6;
    memcpy(p, th, sizeof p);
    memcpy(m, th, sizeof m);
    p[j] += h;
    m[j] -= h;
    check_close(LBL("hand gradient vs FD [%d]", j), gh[j],
                (mlp_loss(p, X, Y) - mlp_loss(m, X, Y)) / (2 * h), 1e-8);
  }
  grad_theta(th, g, X, Y);
  for (int j = 0; j < NP; j++)
    check_close(LBL("reverse gradient vs hand [%d]", j), g[j], gh[j], 1e-13);

  /* 2. H v for a few directions, all three ways of reaching the request */
  double Hcol[NP][NP];
  for (int d = 0; d < 3; d++) {
    double v[NP], hv[NP], want[NP];
    for (int j = 0; j < NP; j++)
      v[j] = sin(2.3 * j + 1.1 * d) * (d == 2 ? 0.1 : 1.0);
    fd_hvp(th, v, want, X, Y);
    for (int which = 0; which < 3; which++) {
      hvp_theta(which, th, v, hv, X, Y);
      static const char *how[3] = {"direct", "through a call",
                                   "accumulating gradient"};
      for (int j = 0; j < NP; j++)
        check_close(LBL("H v (%s), v%d [%d] vs FD of the gradient", how[which],
                        d, j),
                    hv[j], want[j], 2e-8);
    }
  }
  /* every column H e_j, and symmetry */
  for (int j = 0; j < NP; j++) {
    double e[NP] = {0}, want[NP];
    e[j] = 1;
    hvp_theta(0, th, e, Hcol[j], X, Y);
    fd_hvp(th, e, want, X, Y);
    for (int k = 0; k < NP; k++)
      check_close(LBL("H[%d][%d] vs FD of the gradient", k, j), Hcol[j][k],
                  want[k], 2e-8);
  }
  for (int j = 0; j < NP; j++)
    for (int k = j + 1; k < NP; k++)
      check_close(LBL("Hessian symmetry [%d][%d]", j, k), Hcol[j][k],
                  Hcol[k][j], 1e-12);
  /* the output bias enters linearly: d^2 L / d b2^2 = sum_s 1 */
  check_close("H[b2][b2] = number of samples", Hcol[B2][B2], NS, 1e-13);

  /* 3. input-space Hessian of one sample */
  {
    double x[NI] = {0.4, -0.2, 0.9}, y = 0.25;
    double gx[NI], ghx[NI];
    grad_x(x, gx, th, y);
    hand_grad_x(x, ghx, th, y);
    for (int i = 0; i < NI; i++)
      check_close(LBL("reverse input gradient vs hand [%d]", i), gx[i],
                  ghx[i], 1e-13);
    for (int i = 0; i < NI; i++) {
      double v[NI] = {0}, hv[NI], gdummy[NI], xc[NI];
      v[i] = 1;
      memcpy(xc, x, sizeof xc);
      __enzyme_fwddiff((void *)grad_x, enzyme_dup, xc, v, enzyme_dup, gdummy,
                       hv, enzyme_const, th, enzyme_const, y);
      double p[NI], m[NI], gp[NI], gm[NI], h = 1e-5;
      memcpy(p, x, sizeof p);
      memcpy(m, x, sizeof m);
      p[i] += h;
      m[i] -= h;
      hand_grad_x(p, gp, th, y);
      hand_grad_x(m, gm, th, y);
      for (int k = 0; k < NI; k++)
        check_close(LBL("input Hessian [%d][%d] vs FD", k, i), hv[k],
                    (gp[k] - gm[k]) / (2 * h), 2e-8);
    }
  }

  /* 4. Rosenbrock against the analytic Hessian */
  {
    double x[NR] = {-1.2, 1.0, 0.5, 0.8, 1.3}, H[NR][NR];
    rosen_hessian(x, H);
    for (int i = 0; i < NR; i++) {
      double v[NR] = {0}, hv[NR] = {0}, gdummy[NR];
      v[i] = 1;
      __enzyme_fwddiff((void *)rosen_grad, enzyme_dup, x, v, enzyme_dup,
                       gdummy, hv);
      for (int k = 0; k < NR; k++)
        check_close(LBL("Rosenbrock H[%d][%d]", k, i), hv[k], H[k][i],
                    1e-12);
    }
    double v[NR] = {0.3, -1, 2, 0.5, -0.25}, hv[NR] = {0}, gdummy[NR];
    __enzyme_fwddiff((void *)rosen_grad, enzyme_dup, x, v, enzyme_dup, gdummy,
                     hv);
    for (int k = 0; k < NR; k++) {
      double want = 0;
      for (int i = 0; i < NR; i++)
        want += H[k][i] * v[i];
      check_close(LBL("Rosenbrock H v [%d]", k), hv[k], want, 1e-12);
    }
  }
  return check_report();
}
