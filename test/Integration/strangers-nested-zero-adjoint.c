// A second derivative taken through a reverse-mode derivative (forward
// over reverse, reverse over reverse) lost every term in which an
// intermediate adjoint of the inner reverse sweep is exactly 0 at the
// evaluation point (a silent wrong number, found by a stranger program,
// fixed). For f(a, b) = b sin(a), the inner sweep's adjoint of sin(a) is
// b; at b = 0 the mixed derivative d/db (df/da) = cos(a) came back as 0.
// The inner reverse sweep guarded each contribution as
// select(adjoint == 0, 0, partial * adjoint), whose outer derivative at
// adjoint == 0 is that of the constant 0, dropping d(adjoint) * partial;
// now only a NaN product (an infinite or NaN partial) is replaced
// (ReverseModeSynthesizer::reverseRule). Found with a 1-D nonlinear FEM
// Newton solver whose tangent stiffness is forward over the residual
// (strangers-fem-nonlinear-newton-hessian.c): with a guess symmetric about
// the midpoint, the middle element's (u_{e+1} - u_e) is exactly 0 and half
// of its stiffness was missing (the second case here, reduced).
// Zero-initialised parameters make this common: the Hessian of a
// one-hidden-layer network whose output weights start at 0 lost every
// cross term between the two layers (the last case: H[j][NH + j] was 0
// instead of -1.48, -1.67, -1.11 here).
// Expected: the analytic second derivatives.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_const, enzyme_dup;
void __enzyme_fwddiff_v(void *, ...);
typedef struct {
  double da, db;
} Grad2;
Grad2 __enzyme_autodiff(void *, ...);
double __enzyme_autodiff_d(void *, ...);
double __enzyme_fwddiff(void *, ...);

double f(double a, double b) { return b * sin(a); }
double dfda(double a, double b) { return __enzyme_autodiff((void *)f, a, b).da; }

/* (c (a - 0.3)) (a - 0.3): the adjoint of the first factor is a - 0.3. */
double e(double a, double c) {
  double g = a - 0.3;
  double p = c * g;
  return p * g;
}
double dede(double a, double c) {
  return __enzyme_autodiff_d((void *)e, a, enzyme_const, c);
}

/* One hidden layer of NH tanh units, output weights zero-initialised. */
#define NH 3
double net_loss(const double *w, double x, double y) {
  double o = 0;
  for (int j = 0; j < NH; j++)
    o += w[NH + j] * tanh(w[j] * x);
  return (o - y) * (o - y);
}
void net_grad(const double *w, double *g, double x, double y) {
  for (int j = 0; j < 2 * NH; j++)
    g[j] = 0;
  __enzyme_autodiff_d((void *)net_loss, enzyme_dup, w, g, enzyme_const, x,
                      enzyme_const, y);
}

int main(void) {
  const double a = 0.7;
  check_close("fwd over rev d2f/dbda at b = 0",
              __enzyme_fwddiff((void *)dfda, a, 0.0, 0.0, 1.0), cos(a), 1e-14);
  check_close("fwd over rev d2f/dbda at b = 1",
              __enzyme_fwddiff((void *)dfda, a, 0.0, 1.0, 1.0), cos(a), 1e-14);
  Grad2 g = __enzyme_autodiff((void *)dfda, a, 0.0);
  check_close("rev over rev d2f/dbda at b = 0", g.db, cos(a), 1e-14);
  check_close("fwd over rev e'' at g = 0",
              __enzyme_fwddiff((void *)dede, 0.3, 1.0, enzyme_const, 1.36),
              2 * 1.36, 1e-14);
  check_close("fwd over rev e'' at g != 0",
              __enzyme_fwddiff((void *)dede, 0.5, 1.0, enzyme_const, 1.36),
              2 * 1.36, 1e-14);
  /* H[j][NH + j] = d2L / dW1_j dW2_j at W2 = 0, with o = 0:
     -2 y x (1 - tanh^2(W1_j x)). */
  double w[2 * NH] = {0.5, -0.3, 0.8, 0, 0, 0};
  const double x = 0.9, y = 1.0;
  for (int j = 0; j < NH; j++) {
    double v[2 * NH] = {0}, g[2 * NH], hv[2 * NH];
    v[NH + j] = 1;
    __enzyme_fwddiff_v((void *)net_grad, enzyme_dup, w, v, enzyme_dup, g, hv,
                       enzyme_const, x, enzyme_const, y);
    double t = tanh(w[j] * x);
    char name[48];
    snprintf(name, sizeof name, "network H[%d][%d] at zero output weights", j,
             NH + j);
    check_close(name, hv[j], -2 * y * x * (1 - t * t), 1e-12);
  }
  return check_report();
}
